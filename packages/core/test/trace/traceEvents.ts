import { type EventDraft, emptyUsage, errorInfo, type LatheEvent, type Usage } from "@lathe/protocol";
import { fakeKeys } from "@lathe/testkit";

export const sessionId = "0197a000-0000-7000-8000-000000000001";
export const t0 = Date.UTC(2025, 0, 1, 12, 0, 0);
export const secret = fakeKeys.openaiShort;

/** Stamps drafts the way the session's event bus does, at hand-picked times. */
export function eventStamper() {
  let seq = 0;
  return (runId: string, offsetMs: number, draft: EventDraft): LatheEvent =>
    ({ ...draft, sessionId, runId, seq: seq++, at: t0 + offsetMs }) as LatheEvent;
}

function usage(inputTokens: number, outputTokens: number, costUsd: number): Usage {
  return { ...emptyUsage(), inputTokens, outputTokens, costUsd };
}

/**
 * Two runs in the order the agent loop emits them. Run 1: turn 1 streams three tool calls —
 * write_file (approved, succeeds), run_command (rejected at approval), read_file (fails) — and
 * turn 2 answers. Run 2: the model call is retried twice, then the run fails with E_LLM_AUTH.
 * The secret appears in a tool error and in the run error.
 */
export function twoRuns(): LatheEvent[] {
  const at = eventStamper();
  const r1 = "run-1";
  const r2 = "run-2";
  const call = (callId: string, name: string) => ({ callId, name });
  return [
    at(r1, 0, { type: "run_start", mode: "agent", model: "openai:gpt-4.1", prompt: "fix the notes" }),
    at(r1, 5, { type: "turn_start", iteration: 1, maxIterations: 25 }),
    at(r1, 5, { type: "state_change", from: "idle", to: "streaming" }),
    at(r1, 100, { type: "text_delta", messageId: "m1", delta: "Let me look." }),
    at(r1, 200, { type: "tool_call_start", ...call("c1", "write_file") }),
    at(r1, 300, { type: "tool_call_ready", ...call("c1", "write_file"), arguments: { path: "a.txt" } }),
    at(r1, 350, { type: "tool_call_start", ...call("c2", "run_command") }),
    at(r1, 400, {
      type: "tool_call_ready",
      ...call("c2", "run_command"),
      arguments: { command: "rm -rf /" },
    }),
    at(r1, 420, { type: "tool_call_ready", ...call("c3", "read_file"), arguments: { path: "notes.txt" } }),
    at(r1, 800, { type: "usage", usage: usage(600, 120, 0.0021), total: usage(600, 120, 0.0021) }),
    at(r1, 810, { type: "state_change", from: "streaming", to: "tool_pending" }),
    at(r1, 810, { type: "tool_call_state", ...call("c1", "write_file"), state: "validating" }),
    at(r1, 811, { type: "tool_call_state", ...call("c2", "run_command"), state: "validating" }),
    at(r1, 812, { type: "tool_call_state", ...call("c3", "read_file"), state: "validating" }),
    at(r1, 815, { type: "tool_call_state", ...call("c3", "read_file"), state: "scheduled" }),
    at(r1, 820, { type: "state_change", from: "tool_pending", to: "awaiting_approval" }),
    at(r1, 820, { type: "tool_call_state", ...call("c1", "write_file"), state: "awaiting_approval" }),
    at(r1, 821, {
      type: "approval_required",
      ...call("c1", "write_file"),
      approvalId: "a1",
      arguments: { path: "a.txt" },
      risk: "medium",
      reason: "writes a file",
    }),
    at(r1, 3921, { type: "tool_call_state", ...call("c1", "write_file"), state: "scheduled" }),
    at(r1, 3922, { type: "state_change", from: "awaiting_approval", to: "tool_executing" }),
    at(r1, 3922, { type: "tool_call_state", ...call("c1", "write_file"), state: "executing" }),
    at(r1, 3922, { type: "tool_executing", ...call("c1", "write_file") }),
    at(r1, 3934, { type: "tool_call_state", ...call("c1", "write_file"), state: "success" }),
    at(r1, 3934, {
      type: "tool_completed",
      ...call("c1", "write_file"),
      output: "wrote a.txt",
      durationMs: 12,
    }),
    at(r1, 3940, { type: "state_change", from: "tool_executing", to: "awaiting_approval" }),
    at(r1, 3940, { type: "tool_call_state", ...call("c2", "run_command"), state: "awaiting_approval" }),
    at(r1, 3941, {
      type: "approval_required",
      ...call("c2", "run_command"),
      approvalId: "a2",
      arguments: { command: "rm -rf /" },
      risk: "critical",
      reason: "deletes everything",
    }),
    at(r1, 5000, { type: "tool_call_state", ...call("c2", "run_command"), state: "rejected" }),
    at(r1, 5000, { type: "tool_rejected", ...call("c2", "run_command"), message: "Not that." }),
    at(r1, 5001, { type: "state_change", from: "awaiting_approval", to: "tool_executing" }),
    at(r1, 5001, { type: "tool_call_state", ...call("c3", "read_file"), state: "executing" }),
    at(r1, 5001, { type: "tool_executing", ...call("c3", "read_file") }),
    at(r1, 5010, { type: "tool_call_state", ...call("c3", "read_file"), state: "error" }),
    at(r1, 5010, {
      type: "tool_failed",
      ...call("c3", "read_file"),
      error: errorInfo("E_FILE_NOT_FOUND", `No file /home/u/${secret}/notes.txt`),
      durationMs: 9,
    }),
    at(r1, 5012, { type: "turn_end", iteration: 1, toolCalls: 3 }),
    at(r1, 5012, { type: "state_change", from: "tool_executing", to: "tool_results" }),
    at(r1, 5013, { type: "turn_start", iteration: 2, maxIterations: 25 }),
    at(r1, 5013, { type: "state_change", from: "tool_results", to: "streaming" }),
    at(r1, 5500, { type: "text_delta", messageId: "m2", delta: "Done." }),
    at(r1, 6203, { type: "usage", usage: usage(600, 180, 0.0021), total: usage(1200, 300, 0.0042) }),
    at(r1, 6203, { type: "turn_end", iteration: 2, toolCalls: 0 }),
    at(r1, 6204, { type: "state_change", from: "streaming", to: "completed" }),
    at(r1, 6204, {
      type: "run_complete",
      reason: "completed",
      iterations: 2,
      final: "Done.",
      usage: usage(1200, 300, 0.0042),
      durationMs: 6204,
    }),
    at(r1, 6204, { type: "state_change", from: "completed", to: "idle" }),
    at(r2, 10_000, { type: "run_start", mode: "ask", model: "openai:gpt-4.1", prompt: "again" }),
    at(r2, 10_005, { type: "turn_start", iteration: 1, maxIterations: 25 }),
    at(r2, 10_005, { type: "state_change", from: "idle", to: "streaming" }),
    at(r2, 10_500, {
      type: "retry",
      attempt: 1,
      delayMs: 500,
      error: errorInfo("E_LLM_RATE_LIMIT", "429 Too Many Requests"),
    }),
    at(r2, 11_000, {
      type: "retry",
      attempt: 2,
      delayMs: 1000,
      error: errorInfo("E_LLM_RATE_LIMIT", "429 Too Many Requests"),
    }),
    at(r2, 12_000, { type: "turn_end", iteration: 1, toolCalls: 0 }),
    at(r2, 12_000, { type: "state_change", from: "streaming", to: "failed" }),
    at(r2, 12_000, {
      type: "run_complete",
      reason: "failed",
      iterations: 1,
      final: "",
      usage: emptyUsage(),
      durationMs: 2000,
      error: errorInfo("E_LLM_AUTH", `The provider refused the API key ${secret}.`),
    }),
    at(r2, 12_000, { type: "state_change", from: "failed", to: "idle" }),
  ];
}
