import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { emptyUsage, errorInfo, type SpanRecord, spanRecordSchema } from "@lathe/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { secretRedactor } from "../../src/secrets/index.js";
import { RunTracer, traceFilePath } from "../../src/trace/index.js";
import { eventStamper, secret, sessionId, t0, twoRuns } from "./traceEvents.js";

let home: string | undefined;
afterEach(() => {
  if (home) rmSync(home, { recursive: true, force: true });
  home = undefined;
});

function tracerWithSpans(settings: { redact?: (text: string) => string } = {}) {
  home = mkdtempSync(join(tmpdir(), "lathe-trace-"));
  const spans: SpanRecord[] = [];
  const tracer = new RunTracer({
    latheHome: home,
    sessionId,
    onSpan: (span) => spans.push(span),
    ...settings,
  });
  return { tracer, spans, file: traceFilePath(home, sessionId) };
}

/** The spans without their random ids: parents become indexes into the same list, times offsets from t0. */
function summarize(spans: readonly SpanRecord[]) {
  return spans.map((span) => ({
    name: span.name,
    parent: span.parentSpanId === undefined ? null : spans.findIndex((p) => p.spanId === span.parentSpanId),
    runId: span.runId,
    start: span.startMs - t0,
    end: span.endMs - t0,
    status: span.status,
    errorCode: span.errorCode ?? null,
    attributes: span.attributes,
  }));
}

const model = "openai:gpt-4.1";
const llmUsage = (input: number, output: number, cost: number) => ({
  "gen_ai.usage.input_tokens": input,
  "gen_ai.usage.output_tokens": output,
  "lathe.cached_input_tokens": 0,
  "lathe.reasoning_tokens": 0,
  "lathe.cost_usd": cost,
});

describe("RunTracer", () => {
  it("builds run → turn → llm_call / tool_call → approval spans from the event stream", () => {
    const { tracer, spans } = tracerWithSpans({ redact: secretRedactor([secret]) });
    for (const event of twoRuns()) tracer.handle(event);

    expect(summarize(spans)).toEqual([
      {
        name: "llm_call",
        parent: 6,
        runId: "run-1",
        start: 5,
        end: 800,
        status: "ok",
        errorCode: null,
        attributes: { "gen_ai.request.model": model, "lathe.retries": 0, ...llmUsage(600, 120, 0.0021) },
      },
      {
        name: "approval",
        parent: 2,
        runId: "run-1",
        start: 821,
        end: 3921,
        status: "ok",
        errorCode: null,
        attributes: { "lathe.risk": "medium", "lathe.approval.decision": "approved" },
      },
      {
        name: "tool_call",
        parent: 6,
        runId: "run-1",
        start: 300,
        end: 3934,
        status: "ok",
        errorCode: null,
        attributes: {
          "lathe.tool.name": "write_file",
          "lathe.tool.call_id": "c1",
          "lathe.tool.status": "success",
        },
      },
      {
        name: "approval",
        parent: 4,
        runId: "run-1",
        start: 3941,
        end: 5000,
        status: "ok",
        errorCode: null,
        attributes: { "lathe.risk": "critical", "lathe.approval.decision": "rejected" },
      },
      {
        name: "tool_call",
        parent: 6,
        runId: "run-1",
        start: 400,
        end: 5000,
        status: "ok",
        errorCode: "E_USER_REJECTED",
        attributes: {
          "lathe.tool.name": "run_command",
          "lathe.tool.call_id": "c2",
          "lathe.tool.status": "rejected",
          "lathe.error.message": "Not that.",
        },
      },
      {
        name: "tool_call",
        parent: 6,
        runId: "run-1",
        start: 420,
        end: 5010,
        status: "error",
        errorCode: "E_FILE_NOT_FOUND",
        attributes: {
          "lathe.tool.name": "read_file",
          "lathe.tool.call_id": "c3",
          "lathe.tool.status": "error",
          "lathe.error.message": "No file /home/u/[redacted]/notes.txt",
        },
      },
      {
        name: "turn",
        parent: 9,
        runId: "run-1",
        start: 5,
        end: 5012,
        status: "ok",
        errorCode: null,
        attributes: { "lathe.iteration": 1, "lathe.tool_calls": 3 },
      },
      {
        name: "turn",
        parent: 9,
        runId: "run-1",
        start: 5013,
        end: 6203,
        status: "ok",
        errorCode: null,
        attributes: { "lathe.iteration": 2, "lathe.tool_calls": 0 },
      },
      {
        name: "llm_call",
        parent: 7,
        runId: "run-1",
        start: 5013,
        end: 6203,
        status: "ok",
        errorCode: null,
        attributes: { "gen_ai.request.model": model, "lathe.retries": 0, ...llmUsage(600, 180, 0.0021) },
      },
      {
        name: "run",
        parent: null,
        runId: "run-1",
        start: 0,
        end: 6204,
        status: "ok",
        errorCode: null,
        attributes: {
          "lathe.session_id": sessionId,
          "lathe.run_id": "run-1",
          "lathe.mode": "agent",
          "lathe.model": model,
          "lathe.reason": "completed",
          "lathe.iterations": 2,
          ...llmUsage(1200, 300, 0.0042),
        },
      },
      {
        name: "turn",
        parent: 12,
        runId: "run-2",
        start: 10_005,
        end: 12_000,
        status: "ok",
        errorCode: null,
        attributes: { "lathe.iteration": 1, "lathe.tool_calls": 0 },
      },
      {
        // The run failed while the model call was the open step: the failure is its own.
        name: "llm_call",
        parent: 10,
        runId: "run-2",
        start: 10_005,
        end: 12_000,
        status: "error",
        errorCode: "E_LLM_AUTH",
        attributes: {
          "gen_ai.request.model": model,
          "lathe.retries": 2,
          "lathe.error.message": "The provider refused the API key [redacted].",
        },
      },
      {
        name: "run",
        parent: null,
        runId: "run-2",
        start: 10_000,
        end: 12_000,
        status: "error",
        errorCode: "E_LLM_AUTH",
        attributes: {
          "lathe.session_id": sessionId,
          "lathe.run_id": "run-2",
          "lathe.mode": "ask",
          "lathe.model": model,
          "lathe.reason": "failed",
          "lathe.iterations": 1,
          ...llmUsage(0, 0, 0),
          "lathe.error.message": "The provider refused the API key [redacted].",
        },
      },
    ]);
  });

  it("gives each run its own trace and uses OpenTelemetry hex ids", () => {
    const { tracer, spans } = tracerWithSpans();
    for (const event of twoRuns()) tracer.handle(event);
    const traces = (runId: string) => new Set(spans.filter((s) => s.runId === runId).map((s) => s.traceId));
    expect(traces("run-1").size).toBe(1);
    expect(traces("run-2").size).toBe(1);
    expect([...traces("run-1")][0]).not.toBe([...traces("run-2")][0]);
    for (const span of spans) {
      expect(spanRecordSchema.parse(span)).toEqual(span);
      expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(span.spanId).toMatch(/^[0-9a-f]{16}$/);
      expect(span.sessionId).toBe(sessionId);
    }
  });

  it("appends every span to $LATHE_HOME/traces/<session>.jsonl as it ends, owner-only", () => {
    const { tracer, spans, file } = tracerWithSpans();
    const events = twoRuns();
    const firstRunEnd = events.findIndex((e) => e.type === "run_complete");
    for (const event of events.slice(0, firstRunEnd + 1)) tracer.handle(event);
    const afterFirstRun = readFileSync(file, "utf8").trim().split("\n");
    expect(afterFirstRun.map((line) => JSON.parse(line))).toEqual(spans);
    expect(afterFirstRun).toHaveLength(10);

    for (const event of events.slice(firstRunEnd + 1)) tracer.handle(event);
    const lines = readFileSync(file, "utf8").trim().split("\n");
    expect(lines.map((line) => JSON.parse(line))).toEqual(spans);
    expect(lines).toHaveLength(13);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("never lets a secret reach onSpan or the JSONL file", () => {
    const { tracer, spans, file } = tracerWithSpans({ redact: secretRedactor([secret]) });
    const stamp = eventStamper();
    // The secret also hides in a string attribute the tracer copies verbatim: the model name.
    tracer.handle(stamp("r", 0, { type: "run_start", mode: "agent", model: `custom:${secret}`, prompt: "" }));
    for (const event of twoRuns()) tracer.handle(event);
    tracer.handle(
      stamp("r", 1, {
        type: "run_complete",
        reason: "cancelled",
        iterations: 0,
        final: "",
        usage: emptyUsage(),
        durationMs: 1,
      }),
    );
    const written = readFileSync(file, "utf8");
    expect(written).toContain("[redacted]");
    expect(written).not.toContain(secret);
    expect(JSON.stringify(spans)).not.toContain(secret);
    expect(spans.at(-1)?.attributes["lathe.model"]).toBe("custom:[redacted]");
  });

  it("records a cancelled run as ok with E_CANCELLED, its open model call too", () => {
    const { tracer, spans } = tracerWithSpans();
    const stamp = eventStamper();
    tracer.handle(stamp("r", 0, { type: "run_start", mode: "agent", model, prompt: "" }));
    tracer.handle(stamp("r", 1, { type: "turn_start", iteration: 1, maxIterations: 25 }));
    tracer.handle(stamp("r", 1, { type: "state_change", from: "idle", to: "streaming" }));
    tracer.handle(stamp("r", 40, { type: "turn_end", iteration: 1, toolCalls: 0 }));
    tracer.handle(stamp("r", 41, { type: "state_change", from: "streaming", to: "cancelled" }));
    tracer.handle(
      stamp("r", 41, {
        type: "run_complete",
        reason: "cancelled",
        iterations: 1,
        final: "",
        usage: emptyUsage(),
        durationMs: 41,
      }),
    );
    expect(
      summarize(spans).map(({ name, end, status, errorCode }) => [name, end, status, errorCode]),
    ).toEqual([
      ["turn", 40, "ok", null],
      ["llm_call", 40, "ok", "E_CANCELLED"],
      ["run", 41, "ok", "E_CANCELLED"],
    ]);
  });

  it("records a blocked call as an error and a call cancelled at its approval as ok with E_CANCELLED", () => {
    const { tracer, spans } = tracerWithSpans();
    const stamp = eventStamper();
    const blocked = { callId: "b", name: "run_command" };
    const waiting = { callId: "w", name: "write_file" };
    const events = [
      stamp("r", 0, { type: "run_start", mode: "agent", model, prompt: "" }),
      stamp("r", 1, { type: "turn_start", iteration: 1, maxIterations: 25 }),
      stamp("r", 1, { type: "state_change", from: "idle", to: "streaming" }),
      stamp("r", 10, { type: "tool_call_ready", ...blocked, arguments: {} }),
      stamp("r", 11, { type: "tool_call_ready", ...waiting, arguments: {} }),
      stamp("r", 20, { type: "state_change", from: "streaming", to: "tool_pending" }),
      stamp("r", 21, { type: "tool_call_state", ...blocked, state: "validating" }),
      stamp("r", 22, { type: "tool_call_state", ...waiting, state: "validating" }),
      stamp("r", 23, { type: "tool_call_state", ...blocked, state: "error" }),
      stamp("r", 23, {
        type: "tool_blocked",
        ...blocked,
        error: errorInfo("E_SECURITY_BLOCKED", "The policy forbids sudo."),
      }),
      stamp("r", 24, { type: "tool_call_state", ...waiting, state: "awaiting_approval" }),
      stamp("r", 25, {
        type: "approval_required",
        ...waiting,
        approvalId: "a",
        arguments: {},
        risk: "low",
        reason: "writes",
      }),
      stamp("r", 90, { type: "tool_call_state", ...waiting, state: "cancelled" }),
      stamp("r", 90, {
        type: "tool_failed",
        ...waiting,
        error: errorInfo("E_CANCELLED", "The run was cancelled before this call finished."),
        durationMs: 0,
      }),
      stamp("r", 91, { type: "turn_end", iteration: 1, toolCalls: 2 }),
      stamp("r", 92, {
        type: "run_complete",
        reason: "cancelled",
        iterations: 1,
        final: "",
        usage: emptyUsage(),
        durationMs: 92,
      }),
    ];
    for (const event of events) tracer.handle(event);
    expect(
      summarize(spans).map(({ name, parent, end, status, errorCode, attributes }) => ({
        name,
        parent,
        end,
        status,
        errorCode,
        outcome: attributes["lathe.tool.status"] ?? attributes["lathe.approval.decision"] ?? null,
      })),
    ).toEqual([
      { name: "llm_call", parent: 4, end: 20, status: "ok", errorCode: null, outcome: null },
      {
        name: "tool_call",
        parent: 4,
        end: 23,
        status: "error",
        errorCode: "E_SECURITY_BLOCKED",
        outcome: "error",
      },
      { name: "approval", parent: 3, end: 90, status: "ok", errorCode: null, outcome: "cancelled" },
      { name: "tool_call", parent: 4, end: 90, status: "ok", errorCode: "E_CANCELLED", outcome: "cancelled" },
      { name: "turn", parent: 5, end: 91, status: "ok", errorCode: null, outcome: null },
      { name: "run", parent: null, end: 92, status: "ok", errorCode: "E_CANCELLED", outcome: null },
    ]);
    expect(spans[1]?.attributes["lathe.error.message"]).toBe("The policy forbids sudo.");
  });

  it("on shutdown ends open spans as errors with E_CANCELLED and ignores later events", async () => {
    const { tracer, spans, file } = tracerWithSpans();
    const events = twoRuns();
    // Stop while write_file waits for its approval.
    const stopAt = events.findIndex((e) => e.type === "approval_required");
    for (const event of events.slice(0, stopAt + 1)) tracer.handle(event);
    expect(spans.map((s) => s.name)).toEqual(["llm_call"]);

    await tracer.shutdown();
    for (const event of events.slice(stopAt + 1)) tracer.handle(event);

    expect(spans.map((s) => [s.name, s.status, s.errorCode])).toEqual([
      ["llm_call", "ok", undefined],
      ["approval", "error", "E_CANCELLED"],
      ["tool_call", "error", "E_CANCELLED"],
      ["tool_call", "error", "E_CANCELLED"],
      ["tool_call", "error", "E_CANCELLED"],
      ["turn", "error", "E_CANCELLED"],
      ["run", "error", "E_CANCELLED"],
    ]);
    expect(spans[1]?.attributes["lathe.approval.decision"]).toBe("cancelled");
    expect(spans[2]?.attributes["lathe.tool.status"]).toBe("cancelled");
    expect(readFileSync(file, "utf8").trim().split("\n")).toHaveLength(7);
    await tracer.shutdown();
  });

  it("throws a failing onSpan from handle, after the JSONL line is written", () => {
    home = mkdtempSync(join(tmpdir(), "lathe-trace-"));
    const tracer = new RunTracer({
      latheHome: home,
      sessionId,
      onSpan: () => {
        throw new Error("database is locked");
      },
    });
    const stamp = eventStamper();
    tracer.handle(stamp("r", 0, { type: "run_start", mode: "agent", model, prompt: "" }));
    tracer.handle(stamp("r", 1, { type: "turn_start", iteration: 1, maxIterations: 25 }));
    expect(() =>
      tracer.handle(stamp("r", 2, { type: "state_change", from: "streaming", to: "tool_pending" })),
    ).toThrow("database is locked");
    expect(readFileSync(traceFilePath(home, sessionId), "utf8")).toContain('"name":"llm_call"');
  });

  it("hands sink errors to onError instead when one is given", () => {
    home = mkdtempSync(join(tmpdir(), "lathe-trace-"));
    const errors: unknown[] = [];
    const tracer = new RunTracer({
      latheHome: home,
      sessionId,
      onSpan: () => {
        throw new Error("database is locked");
      },
      onError: (error) => errors.push(error),
    });
    for (const event of twoRuns()) tracer.handle(event);
    expect(errors).toHaveLength(13);
  });

  it("refuses a session id that would name a file outside traces/", () => {
    expect(() => new RunTracer({ latheHome: tmpdir(), sessionId: "../escape" })).toThrow(
      /cannot name a trace file/,
    );
  });
});
