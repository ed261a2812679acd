/** The points in a session where user hooks run; names and payloads follow Claude Code's hooks. */
export const hookEvents = [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "Stop",
  "SubagentStop",
  "PreCompact",
  "SessionEnd",
] as const;

export type HookEvent = (typeof hookEvents)[number];

export function isHookEvent(name: string): name is HookEvent {
  return (hookEvents as readonly string[]).includes(name);
}

/**
 * The event-specific fields of each event's input, in camelCase; they reach the hook in snake_case
 * (`toolName` → `tool_name`), beside the common `session_id`, `cwd` and `hook_event_name`.
 */
export interface HookEventInputs {
  SessionStart: { source: "startup" | "resume" | "clear" | "compact"; model?: string };
  UserPromptSubmit: { prompt: string };
  PreToolUse: { toolName: string; toolInput: unknown; toolUseId?: string };
  PostToolUse: { toolName: string; toolInput: unknown; toolResponse: unknown; toolUseId?: string };
  PostToolUseFailure: {
    toolName: string;
    toolInput: unknown;
    error: string;
    isInterrupt?: boolean;
    toolUseId?: string;
  };
  /** `stopHookActive` is true when the run already continues because a Stop hook blocked, so hooks can avoid looping. */
  Stop: { stopHookActive: boolean };
  SubagentStop: { stopHookActive: boolean; agentId?: string; agentType?: string };
  PreCompact: { trigger: "manual" | "auto"; customInstructions?: string };
  SessionEnd: { reason: string };
}

export type HookEventInput<E extends HookEvent> = HookEventInputs[E];

/**
 * The value a matcher is tested against, where Claude Code tests one: the tool name for tool events,
 * the source, trigger or reason for session and compaction events. Undefined means every group runs.
 */
export function matchTarget(event: HookEvent, input: HookEventInputs[HookEvent]): string | undefined {
  switch (event) {
    case "PreToolUse":
    case "PostToolUse":
    case "PostToolUseFailure":
      return "toolName" in input ? input.toolName : undefined;
    case "SessionStart":
      return "source" in input ? input.source : undefined;
    case "PreCompact":
      return "trigger" in input ? input.trigger : undefined;
    case "SessionEnd":
      return "reason" in input ? input.reason : undefined;
    default:
      return undefined;
  }
}

/** Events whose action a hook can prevent; on the others, exit 2 is reported like any failing hook. */
export function canBlock(event: HookEvent): boolean {
  return event !== "SessionStart" && event !== "SessionEnd";
}

/** Top-level keys only: `tool_input` and `tool_response` are the tool's own data and stay as they are. */
export function toWireFields(fields: object): Record<string, unknown> {
  const wire: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    wire[key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)] = value;
  }
  return wire;
}
