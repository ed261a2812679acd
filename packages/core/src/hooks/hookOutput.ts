import { z } from "zod";
import { canBlock, type HookEvent } from "./hookEvents.js";
import type { HookProcessResult } from "./hookProcess.js";

export type HookPermissionDecision = "allow" | "deny" | "ask";

/** The JSON a hook may print on stdout with exit 0 (Claude Code's fields; unknown ones are ignored). */
export const hookJsonOutputSchema = z.object({
  continue: z.boolean().optional(),
  stopReason: z.string().optional(),
  suppressOutput: z.boolean().optional(),
  systemMessage: z.string().optional(),
  /** `approve` is Claude Code's older PreToolUse spelling of allow. */
  decision: z.enum(["block", "approve"]).optional(),
  reason: z.string().optional(),
  hookSpecificOutput: z
    .object({
      hookEventName: z.string().optional(),
      permissionDecision: z.enum(["allow", "deny", "ask"]).optional(),
      permissionDecisionReason: z.string().optional(),
      additionalContext: z.string().optional(),
    })
    .optional(),
});

/** What one hook said, before it is combined with the other hooks of the same event. */
export interface HookVerdict {
  block?: string;
  permission?: { decision: HookPermissionDecision; reason: string | undefined };
  additionalContext?: string;
  stop?: string;
  suppressOutput?: boolean;
  systemMessage?: string;
  error?: string;
}

/** Events whose plain (non-JSON) stdout becomes context for the model, as in Claude Code. */
const plainStdoutIsContext: ReadonlySet<HookEvent> = new Set(["UserPromptSubmit", "SessionStart"]);

/** Reads one finished hook by Claude Code's rules: exit 2 blocks, 0 may carry JSON, others are errors. */
export function interpretHookResult(
  event: HookEvent,
  label: string,
  result: HookProcessResult,
  timeoutMs: number,
): HookVerdict {
  if (result.spawnError !== undefined)
    return { error: `hook ${label} could not start: ${result.spawnError}` };
  if (result.timedOut) {
    return {
      error: `hook ${label} timed out after ${timeoutMs / 1000} s and was killed; raise its "timeout" (seconds) in hooks.json if it needs longer`,
    };
  }
  if (result.cancelled) return { error: `hook ${label} was cancelled` };
  const stderr = result.stderr.trim();
  if (result.exitCode === 2) {
    const reason = stderr || `blocked by hook ${label} (exit code 2, no message on stderr)`;
    if (canBlock(event)) return { block: reason };
    return { error: `hook ${label} exited 2, which cannot block ${event}: ${reason}` };
  }
  if (result.exitCode !== 0) {
    const how =
      result.exitCode === null ? `was killed by ${result.signal ?? "a signal"}` : `exited ${result.exitCode}`;
    return { error: `hook ${label} ${how}${stderr ? `: ${stderr}` : ""}` };
  }
  return interpretStdout(event, label, result.stdout.trim());
}

function interpretStdout(event: HookEvent, label: string, stdout: string): HookVerdict {
  const json = stdout.startsWith("{") ? parseJson(stdout) : undefined;
  if (json === undefined) {
    return stdout && plainStdoutIsContext.has(event) ? { additionalContext: stdout } : {};
  }
  const parsed = hookJsonOutputSchema.safeParse(json);
  if (!parsed.success) {
    return { error: `hook ${label} printed JSON Lathe cannot use: ${z.prettifyError(parsed.error)}` };
  }
  const output = parsed.data;
  const verdict: HookVerdict = {};
  if (output.continue === false) verdict.stop = output.stopReason ?? `stopped by hook ${label}`;
  if (output.suppressOutput) verdict.suppressOutput = true;
  if (output.systemMessage) verdict.systemMessage = output.systemMessage;

  const specific = output.hookSpecificOutput;
  if (specific?.hookEventName !== undefined && specific.hookEventName !== event) {
    verdict.error = `hook ${label} answered for ${specific.hookEventName} during ${event}; its hookSpecificOutput was ignored`;
  } else if (specific) {
    if (specific.additionalContext) verdict.additionalContext = specific.additionalContext;
    if (specific.permissionDecision && event === "PreToolUse") {
      verdict.permission = {
        decision: specific.permissionDecision,
        reason: specific.permissionDecisionReason,
      };
    }
  }

  if (output.decision === "block") {
    const reason = output.reason ?? `blocked by hook ${label}`;
    if (canBlock(event)) verdict.block = reason;
    else verdict.error = `hook ${label} asked to block ${event}, which cannot be blocked: ${reason}`;
  } else if (output.decision === "approve" && event === "PreToolUse" && !verdict.permission) {
    verdict.permission = { decision: "allow", reason: output.reason };
  }
  return verdict;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
