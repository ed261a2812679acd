import type { CheckpointSummary } from "@lathe/protocol";
import { shorten, summarizeToolCall } from "@lathe/protocol";
import type { ChatItem } from "../state/sessionView.js";

const fallbackLabels: Record<CheckpointSummary["reason"], string> = {
  user_message: "Before message",
  tool_call: "Before tool call",
  before_restore: "Before restore",
  before_reject: "Before rejecting changes",
  before_apply: "Before applying a cloud task",
};

/**
 * What a checkpoint was taken before, in the words of the transcript: the command
 * ("Before `rm -r build`"), the tool's action ("Before editing src/a.ts") or the message's first
 * words. The generic label when the transcript does not hold the call or message.
 */
export function checkpointLabel(checkpoint: CheckpointSummary, items: readonly ChatItem[]): string {
  const fallback = fallbackLabels[checkpoint.reason];
  if (checkpoint.reason === "user_message") {
    const message = items.find((item) => item.kind === "user" && item.messageId === checkpoint.messageId);
    return message?.kind === "user" && message.text.trim() !== ""
      ? `Before “${shorten(message.text, 48)}”`
      : fallback;
  }
  if (checkpoint.reason !== "tool_call") return fallback;
  const call = items.find((item) => item.kind === "tool" && item.callId === checkpoint.callId);
  if (call?.kind !== "tool") return fallback;
  const command = (call.arguments as { command?: unknown } | undefined)?.command;
  if (call.name === "run_terminal_cmd" && typeof command === "string")
    return `Before \`${shorten(command, 48)}\``;
  const summary = summarizeToolCall(call.name, call.arguments);
  if (summary === call.name) return `Before ${call.name}`;
  // "Editing src/a.ts (replacing ~3 lines)" → "editing src/a.ts": the action, not its size.
  const action = summary.replace(/ \([^)]*\)$/, "");
  return `Before ${action[0]!.toLowerCase()}${action.slice(1)}`;
}
