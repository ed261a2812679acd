import type { ApprovalMode } from "@lathe/core";
import type { Mode } from "@lathe/protocol";

/** Claude Code's permission modes, as the Claude Agent SDK sends and shows them. */
export const claudePermissionModes = [
  "default",
  "acceptEdits",
  "bypassPermissions",
  "plan",
  "dontAsk",
  "auto",
] as const;

export type ClaudePermissionMode = (typeof claudePermissionModes)[number];

export function isClaudePermissionMode(value: string): value is ClaudePermissionMode {
  return (claudePermissionModes as readonly string[]).includes(value);
}

/**
 * A permission mode as Lathe's mode and approval mode. `plan` is Lathe's plan mode; `dontAsk`
 * asks nobody (what the policy would ask about is refused, as in any headless run without an
 * approver); `auto` is Lathe's own `auto`, which approves what the policy judges low risk.
 */
export function fromClaudePermissionMode(mode: ClaudePermissionMode): {
  mode: Mode;
  approvalMode: ApprovalMode;
  askNobody: boolean;
} {
  switch (mode) {
    case "acceptEdits":
      return { mode: "agent", approvalMode: "auto_edit", askNobody: false };
    case "bypassPermissions":
      return { mode: "agent", approvalMode: "yolo", askNobody: false };
    case "plan":
      return { mode: "plan", approvalMode: "ask_first", askNobody: false };
    case "dontAsk":
      return { mode: "agent", approvalMode: "ask_first", askNobody: true };
    case "auto":
      return { mode: "agent", approvalMode: "auto", askNobody: false };
    case "default":
      return { mode: "agent", approvalMode: "ask_first", askNobody: false };
  }
}

/** Lathe's mode and approval mode under Claude Code's name for them. */
export function toClaudePermissionMode(mode: Mode, approvalMode: ApprovalMode): ClaudePermissionMode {
  if (mode === "plan") return "plan";
  switch (approvalMode) {
    case "auto_edit":
      return "acceptEdits";
    case "yolo":
      return "bypassPermissions";
    case "auto":
      return "auto";
    default:
      return "default";
  }
}
