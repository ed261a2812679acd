import type { SpanRecord } from "@lathe/protocol";
import { describe, expect, it } from "vitest";
import { describeSpan, layoutTrace } from "../src/panels/traceTree.js";

function span(
  fields: Pick<SpanRecord, "spanId" | "runId" | "name" | "startMs" | "endMs"> & Partial<SpanRecord>,
): SpanRecord {
  return { traceId: "t", sessionId: "s", status: "ok", attributes: {}, ...fields };
}

const rowsOf = (run: ReturnType<typeof layoutTrace>[number] | undefined) =>
  run?.rows.map((row) => ({
    spanId: row.span.spanId,
    depth: row.depth,
    offsetMs: row.offsetMs,
    durationMs: row.durationMs,
    leftPercent: row.leftPercent,
    widthPercent: row.widthPercent,
  }));

describe("layoutTrace", () => {
  it("orders spans depth first, siblings by start, with offsets and bars relative to the run", () => {
    // Given in storage order (children finish, and are stored, before their parents).
    const spans = [
      span({
        spanId: "tool",
        parentSpanId: "turn1",
        runId: "r1",
        name: "tool_call",
        startMs: 1300,
        endMs: 1500,
      }),
      span({
        spanId: "llm1",
        parentSpanId: "turn1",
        runId: "r1",
        name: "llm_call",
        startMs: 1000,
        endMs: 1300,
      }),
      span({ spanId: "turn2", parentSpanId: "run", runId: "r1", name: "turn", startMs: 1500, endMs: 2000 }),
      span({
        spanId: "llm2",
        parentSpanId: "turn2",
        runId: "r1",
        name: "llm_call",
        startMs: 1500,
        endMs: 2000,
      }),
      span({ spanId: "turn1", parentSpanId: "run", runId: "r1", name: "turn", startMs: 1000, endMs: 1500 }),
      span({ spanId: "run", runId: "r1", name: "run", startMs: 1000, endMs: 2000 }),
    ];

    const runs = layoutTrace(spans);

    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ runId: "r1", startMs: 1000, endMs: 2000, durationMs: 1000 });
    expect(rowsOf(runs[0])).toEqual([
      { spanId: "run", depth: 0, offsetMs: 0, durationMs: 1000, leftPercent: 0, widthPercent: 100 },
      { spanId: "turn1", depth: 1, offsetMs: 0, durationMs: 500, leftPercent: 0, widthPercent: 50 },
      { spanId: "llm1", depth: 2, offsetMs: 0, durationMs: 300, leftPercent: 0, widthPercent: 30 },
      { spanId: "tool", depth: 2, offsetMs: 300, durationMs: 200, leftPercent: 30, widthPercent: 20 },
      { spanId: "turn2", depth: 1, offsetMs: 500, durationMs: 500, leftPercent: 50, widthPercent: 50 },
      { spanId: "llm2", depth: 2, offsetMs: 500, durationMs: 500, leftPercent: 50, widthPercent: 50 },
    ]);
  });

  it("groups spans by run, newest run first, each measured from its own start", () => {
    const spans = [
      span({ spanId: "old", runId: "r-old", name: "run", startMs: 100, endMs: 300 }),
      span({ spanId: "new", runId: "r-new", name: "run", startMs: 5000, endMs: 5400 }),
      span({
        spanId: "new-turn",
        parentSpanId: "new",
        runId: "r-new",
        name: "turn",
        startMs: 5100,
        endMs: 5200,
      }),
    ];

    const runs = layoutTrace(spans);

    expect(runs.map((run) => run.runId)).toEqual(["r-new", "r-old"]);
    expect(rowsOf(runs[0])).toEqual([
      { spanId: "new", depth: 0, offsetMs: 0, durationMs: 400, leftPercent: 0, widthPercent: 100 },
      { spanId: "new-turn", depth: 1, offsetMs: 100, durationMs: 100, leftPercent: 25, widthPercent: 25 },
    ]);
    expect(rowsOf(runs[1])).toEqual([
      { spanId: "old", depth: 0, offsetMs: 0, durationMs: 200, leftPercent: 0, widthPercent: 100 },
    ]);
  });

  it("bounds a run by its spans when the run span is missing, and roots orphans", () => {
    const spans = [
      span({ spanId: "b", parentSpanId: "gone", runId: "r", name: "turn", startMs: 300, endMs: 400 }),
      span({ spanId: "a", parentSpanId: "gone", runId: "r", name: "turn", startMs: 200, endMs: 250 }),
      span({ spanId: "a1", parentSpanId: "a", runId: "r", name: "tool_call", startMs: 210, endMs: 240 }),
    ];

    const [run] = layoutTrace(spans);

    expect(run).toMatchObject({ startMs: 200, endMs: 400, durationMs: 200 });
    expect(rowsOf(run)).toEqual([
      { spanId: "a", depth: 0, offsetMs: 0, durationMs: 50, leftPercent: 0, widthPercent: 25 },
      { spanId: "a1", depth: 1, offsetMs: 10, durationMs: 30, leftPercent: 5, widthPercent: 15 },
      { spanId: "b", depth: 0, offsetMs: 100, durationMs: 100, leftPercent: 50, widthPercent: 50 },
    ]);
  });

  it("keeps every span of a parent cycle, and a zero-length run yields zero-width bars", () => {
    const spans = [
      span({ spanId: "x", parentSpanId: "y", runId: "r", name: "turn", startMs: 10, endMs: 10 }),
      span({ spanId: "y", parentSpanId: "x", runId: "r", name: "turn", startMs: 10, endMs: 10 }),
      span({ spanId: "self", parentSpanId: "self", runId: "r", name: "turn", startMs: 10, endMs: 10 }),
    ];

    const [run] = layoutTrace(spans);

    expect(rowsOf(run)).toEqual([
      { spanId: "self", depth: 0, offsetMs: 0, durationMs: 0, leftPercent: 0, widthPercent: 0 },
      { spanId: "x", depth: 0, offsetMs: 0, durationMs: 0, leftPercent: 0, widthPercent: 0 },
      { spanId: "y", depth: 1, offsetMs: 0, durationMs: 0, leftPercent: 0, widthPercent: 0 },
    ]);
  });

  it("returns no runs for no spans", () => {
    expect(layoutTrace([])).toEqual([]);
  });
});

describe("describeSpan", () => {
  it("names the tool and the model, and counts tokens", () => {
    const llmCall = span({
      spanId: "l",
      runId: "r",
      name: "llm_call",
      startMs: 0,
      endMs: 1,
      attributes: {
        "gen_ai.request.model": "anthropic:claude-sonnet-4",
        "gen_ai.usage.input_tokens": 12345,
        "gen_ai.usage.output_tokens": 678,
        "lathe.retries": 1,
        "lathe.cost_usd": 0.01234,
      },
    });
    const toolCall = span({
      spanId: "t",
      runId: "r",
      name: "tool_call",
      startMs: 0,
      endMs: 1,
      status: "error",
      errorCode: "E_FILE_NOT_FOUND",
      attributes: { "lathe.tool.name": "read_file", "lathe.tool.status": "failed" },
    });
    const turn = span({
      spanId: "u",
      runId: "r",
      name: "turn",
      startMs: 0,
      endMs: 1,
      attributes: { "lathe.iteration": 2 },
    });

    expect(describeSpan(llmCall)).toEqual({
      title: "llm_call",
      details: ["anthropic:claude-sonnet-4", "in 12,345 out 678", "1 retry", "$0.0123"],
    });
    expect(describeSpan(toolCall)).toEqual({ title: "tool_call read_file", details: ["failed"] });
    expect(describeSpan(turn)).toEqual({ title: "turn 2", details: [] });
  });
});
