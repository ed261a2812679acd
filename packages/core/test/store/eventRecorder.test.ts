import { addUsage, errorInfo, type LatheEvent, type Usage } from "@lathe/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SessionStore } from "../../src/store/index.js";
import { createStoreTestBed, eventStamper, type StoreTestBed, t0 } from "./storeTestBed.js";

let bed: StoreTestBed;
let store: SessionStore;
beforeEach(() => {
  bed = createStoreTestBed();
  store = bed.open();
  store.ensureSession({ id: sessionId, projectRoot: "/work/app", mode: "agent", model });
});
afterEach(() => bed.cleanup());

const sessionId = "0197a1b2-0000-7000-8000-00000000000a";
const runId = "0197a1b2-0000-7000-8000-0000000000b1";
const model = "anthropic:claude-sonnet-4-5";
const editArgs = { path: "src/sum.ts", old_string: "a - b", new_string: "a + b" };

const firstCall: Usage = {
  inputTokens: 1200,
  outputTokens: 300,
  cachedInputTokens: 800,
  reasoningTokens: 50,
  costUsd: 0.0125,
};
const secondCall: Usage = {
  inputTokens: 1500,
  outputTokens: 100,
  cachedInputTokens: 1200,
  reasoningTokens: 0,
  costUsd: 0.0031,
};
/** What the store should sum the two calls to; the float cost only to within rounding. */
const summed = {
  inputTokens: 2700,
  outputTokens: 400,
  cachedInputTokens: 2000,
  reasoningTokens: 50,
  costUsd: expect.closeTo(0.0156, 10),
};

/**
 * One run as the engine emits it: an edit asked about and approved, a command asked about and
 * rejected, a read that failed, two model calls, and a provider error ending the run.
 */
function failedRun(): LatheEvent[] {
  const stamp = eventStamper(sessionId, runId);
  const edit = { callId: "call-edit", name: "edit_file" };
  const command = { callId: "call-rm", name: "run_terminal_cmd" };
  const read = { callId: "call-read", name: "read_file" };
  return [
    stamp({ type: "run_start", mode: "agent", model, prompt: "Fix the failing test" }, t0),
    stamp({ type: "turn_start", iteration: 1, maxIterations: 25 }, t0 + 5),
    stamp({ type: "usage", usage: firstCall, total: firstCall }, t0 + 100),
    stamp({ type: "tool_call_ready", ...edit, arguments: editArgs }, t0 + 200),
    stamp({ type: "tool_call_state", ...edit, state: "validating" }, t0 + 201),
    stamp({ type: "tool_call_state", ...edit, state: "awaiting_approval" }, t0 + 202),
    stamp(
      {
        type: "approval_required",
        ...edit,
        approvalId: "approval-edit",
        arguments: editArgs,
        risk: "medium",
        reason: "edits a file in the project",
      },
      t0 + 203,
    ),
    stamp({ type: "tool_call_state", ...edit, state: "scheduled" }, t0 + 900),
    stamp({ type: "tool_call_state", ...edit, state: "executing" }, t0 + 901),
    stamp({ type: "tool_executing", ...edit }, t0 + 902),
    stamp({ type: "tool_call_state", ...edit, state: "success" }, t0 + 990),
    stamp(
      { type: "tool_completed", ...edit, output: "Edited src/sum.ts (1 replacement)", durationMs: 88 },
      t0 + 990,
    ),
    stamp({ type: "tool_call_ready", ...command, arguments: { command: "rm -rf build" } }, t0 + 1000),
    stamp({ type: "tool_call_state", ...command, state: "validating" }, t0 + 1001),
    stamp({ type: "tool_call_state", ...command, state: "awaiting_approval" }, t0 + 1002),
    stamp(
      {
        type: "approval_required",
        ...command,
        approvalId: "approval-rm",
        arguments: { command: "rm -rf build" },
        risk: "high",
        reason: "deletes files",
      },
      t0 + 1003,
    ),
    stamp({ type: "tool_call_state", ...command, state: "rejected" }, t0 + 1500),
    stamp({ type: "tool_rejected", ...command, message: "Not now." }, t0 + 1500),
    stamp({ type: "tool_call_ready", ...read, arguments: { path: "missing.ts" } }, t0 + 1600),
    stamp({ type: "tool_call_state", ...read, state: "validating" }, t0 + 1601),
    stamp({ type: "tool_call_state", ...read, state: "scheduled" }, t0 + 1602),
    stamp({ type: "tool_call_state", ...read, state: "executing" }, t0 + 1603),
    stamp({ type: "tool_call_state", ...read, state: "error" }, t0 + 1610),
    stamp(
      {
        type: "tool_failed",
        ...read,
        error: errorInfo("E_FILE_NOT_FOUND", "missing.ts does not exist"),
        durationMs: 7,
      },
      t0 + 1610,
    ),
    stamp({ type: "turn_end", iteration: 1, toolCalls: 3 }, t0 + 1700),
    stamp({ type: "turn_start", iteration: 2, maxIterations: 25 }, t0 + 1701),
    stamp({ type: "usage", usage: secondCall, total: addUsage(firstCall, secondCall) }, t0 + 2500),
    stamp(
      {
        type: "run_complete",
        reason: "failed",
        iterations: 2,
        final: "",
        usage: addUsage(firstCall, secondCall),
        durationMs: 3000,
        error: errorInfo("E_LLM_RATE_LIMIT", "429 Too Many Requests"),
      },
      t0 + 3000,
    ),
  ];
}

describe("recordEvent", () => {
  it("records a run: its end, iterations, error, duration and summed usage", () => {
    for (const event of failedRun()) store.recordEvent(event);
    expect(store.runs(sessionId)).toEqual([
      {
        id: runId,
        prompt: "Fix the failing test",
        mode: "agent",
        model,
        status: "failed",
        iterations: 2,
        errorCode: "E_LLM_RATE_LIMIT",
        errorMessage: "429 Too Many Requests",
        startedAt: t0,
        endedAt: t0 + 3000,
        durationMs: 3000,
        usage: summed,
      },
    ]);
  });

  it("records each tool call's final state, error code and duration", () => {
    for (const event of failedRun()) store.recordEvent(event);
    expect(store.toolCalls(sessionId)).toEqual([
      {
        callId: "call-edit",
        runId,
        name: "edit_file",
        arguments: editArgs,
        state: "success",
        durationMs: 88,
        startedAt: t0 + 200,
      },
      {
        callId: "call-rm",
        runId,
        name: "run_terminal_cmd",
        arguments: { command: "rm -rf build" },
        state: "rejected",
        errorCode: "E_USER_REJECTED",
        durationMs: 0,
        startedAt: t0 + 1000,
      },
      {
        callId: "call-read",
        runId,
        name: "read_file",
        arguments: { path: "missing.ts" },
        state: "error",
        errorCode: "E_FILE_NOT_FOUND",
        durationMs: 7,
        startedAt: t0 + 1600,
      },
    ]);
    const ends = store.db
      .prepare("SELECT call_id, error_message, ended_at FROM tool_calls ORDER BY started_at")
      .all();
    expect(ends).toEqual([
      { call_id: "call-edit", error_message: null, ended_at: t0 + 990 },
      { call_id: "call-rm", error_message: "Not now.", ended_at: t0 + 1500 },
      { call_id: "call-read", error_message: "missing.ts does not exist", ended_at: t0 + 1610 },
    ]);
  });

  it("records each approval asked and the answer its call's next state gave", () => {
    for (const event of failedRun()) store.recordEvent(event);
    const approvals = store.db
      .prepare(
        "SELECT id, session_id, call_id, tool, risk, reason, decision, requested_at, answered_at FROM approvals ORDER BY requested_at",
      )
      .all();
    expect(approvals).toEqual([
      {
        id: "approval-edit",
        session_id: sessionId,
        call_id: "call-edit",
        tool: "edit_file",
        risk: "medium",
        reason: "edits a file in the project",
        decision: "approved",
        requested_at: t0 + 203,
        answered_at: t0 + 900,
      },
      {
        id: "approval-rm",
        session_id: sessionId,
        call_id: "call-rm",
        tool: "run_terminal_cmd",
        risk: "high",
        reason: "deletes files",
        decision: "rejected",
        requested_at: t0 + 1003,
        answered_at: t0 + 1500,
      },
    ]);
  });

  it("sums usage into the session as listed and found, and touches its update time", () => {
    for (const event of failedRun()) store.recordEvent(event);
    const [listed] = store.listSessions();
    expect(listed).toMatchObject({ id: sessionId, usage: summed, updatedAt: t0 + 3000 });
    expect(store.findSession(sessionId.slice(0, 8))).toMatchObject({ ok: true, value: { usage: summed } });
    const rows = store.db
      .prepare("SELECT run_id, model, input_tokens, cost_usd FROM usage ORDER BY id")
      .all();
    expect(rows).toEqual([
      { run_id: runId, model, input_tokens: 1200, cost_usd: 0.0125 },
      { run_id: runId, model, input_tokens: 1500, cost_usd: 0.0031 },
    ]);
  });

  it("leaves a run that never completed as running, with no end", () => {
    const stamp = eventStamper(sessionId, "0197a1b2-0000-7000-8000-0000000000b2");
    store.recordEvent(stamp({ type: "run_start", mode: "ask", model, prompt: "What does sum do?" }, t0));
    store.recordEvent(stamp({ type: "turn_start", iteration: 1, maxIterations: 25 }, t0 + 1));
    expect(store.runs(sessionId)).toEqual([
      {
        id: "0197a1b2-0000-7000-8000-0000000000b2",
        prompt: "What does sum do?",
        mode: "ask",
        model,
        status: "running",
        iterations: 0,
        startedAt: t0,
        usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0, costUsd: 0 },
      },
    ]);
  });
});
