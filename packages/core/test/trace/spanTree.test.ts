import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SpanRecord } from "@lathe/protocol";
import { describe, expect, it } from "vitest";
import { formatSpanTree, RunTracer } from "../../src/trace/index.js";
import { sessionId, twoRuns } from "./traceEvents.js";

const t = 1_700_000_000_000;

function span(
  spanId: string,
  parentSpanId: string | undefined,
  name: SpanRecord["name"],
  startMs: number,
  endMs: number,
  attributes: SpanRecord["attributes"] = {},
  extra: Partial<SpanRecord> = {},
): SpanRecord {
  return {
    traceId: "t1",
    spanId,
    ...(parentSpanId ? { parentSpanId } : {}),
    sessionId: "s",
    runId: "r1",
    name,
    startMs: t + startMs,
    endMs: t + endMs,
    status: "ok",
    attributes,
    ...extra,
  };
}

const tokens = (input: number, output: number, cost = 0) => ({
  "gen_ai.usage.input_tokens": input,
  "gen_ai.usage.output_tokens": output,
  "lathe.cost_usd": cost,
});

describe("formatSpanTree", () => {
  it("draws each run as a tree, children in start order, with timings and outcomes", () => {
    // Given in end order, as the tracer emits them: the tree must not depend on it.
    const spans = [
      span("llm1", "turn1", "llm_call", 0, 800, tokens(600, 120)),
      span("appr", "tool1", "approval", 810, 3910, { "lathe.approval.decision": "approved" }),
      span("tool1", "turn1", "tool_call", 805, 3922, {
        "lathe.tool.name": "read_file",
        "lathe.tool.status": "success",
      }),
      span(
        "tool2",
        "turn1",
        "tool_call",
        806,
        1195,
        {
          "lathe.tool.name": "run_command",
          "lathe.tool.status": "rejected",
        },
        { errorCode: "E_USER_REJECTED" },
      ),
      span("turn1", "run1", "turn", 0, 1200, { "lathe.iteration": 1 }),
      span("llm2", "turn2", "llm_call", 1200, 2390, { ...tokens(600, 180, 0.0021), "lathe.retries": 2 }),
      span("turn2", "run1", "turn", 1200, 2390, { "lathe.iteration": 2 }),
      span("run1", undefined, "run", 0, 2410, { "lathe.reason": "completed", ...tokens(1200, 300, 0.0042) }),
      span("llm3", "turn3", "llm_call", 5000, 5012, {}, { status: "error", errorCode: "E_LLM_AUTH" }),
      span("turn3", "run2", "turn", 5000, 5012, { "lathe.iteration": 1 }),
      span(
        "run2",
        undefined,
        "run",
        4990,
        5012,
        { "lathe.reason": "failed" },
        {
          status: "error",
          errorCode: "E_LLM_AUTH",
          runId: "r2",
          traceId: "t2",
        },
      ),
    ];
    expect(formatSpanTree(spans)).toBe(
      [
        "run  2.41 s  completed  in 1,200 out 300 tokens  $0.0042",
        "├─ turn 1  1.20 s",
        "│  ├─ llm_call  800 ms  in 600 out 120",
        "│  ├─ tool_call read_file  3.12 s  success",
        "│  │  └─ approval  3.10 s  approved",
        "│  └─ tool_call run_command  389 ms  rejected E_USER_REJECTED",
        "└─ turn 2  1.19 s",
        "   └─ llm_call  1.19 s  in 600 out 180  2 retries  $0.0021",
        "run  22 ms  failed E_LLM_AUTH",
        "└─ turn 1  12 ms",
        "   └─ llm_call  12 ms  error E_LLM_AUTH",
      ].join("\n"),
    );
  });

  it("shows a span whose parent is missing as a root of its own", () => {
    const spans = [span("tool", "gone", "tool_call", 0, 5, { "lathe.tool.name": "glob" })];
    expect(formatSpanTree(spans)).toBe("tool_call glob  5 ms");
  });

  it("is empty for no spans", () => {
    expect(formatSpanTree([])).toBe("");
  });

  it("prints what the tracer recorded for a real event stream", () => {
    const home = mkdtempSync(join(tmpdir(), "lathe-tree-"));
    try {
      const spans: SpanRecord[] = [];
      const tracer = new RunTracer({ latheHome: home, sessionId, onSpan: (s) => spans.push(s) });
      for (const event of twoRuns()) tracer.handle(event);
      expect(formatSpanTree(spans)).toBe(
        [
          "run  6.20 s  completed  in 1,200 out 300 tokens  $0.0042",
          "├─ turn 1  5.01 s",
          "│  ├─ llm_call  795 ms  in 600 out 120  $0.0021",
          "│  ├─ tool_call write_file  3.63 s  success",
          "│  │  └─ approval  3.10 s  approved",
          "│  ├─ tool_call run_command  4.60 s  rejected E_USER_REJECTED",
          "│  │  └─ approval  1.06 s  rejected",
          "│  └─ tool_call read_file  4.59 s  error E_FILE_NOT_FOUND",
          "└─ turn 2  1.19 s",
          "   └─ llm_call  1.19 s  in 600 out 180  $0.0021",
          "run  2.00 s  failed E_LLM_AUTH  in 0 out 0 tokens",
          "└─ turn 1  2.00 s",
          "   └─ llm_call  2.00 s  error E_LLM_AUTH  2 retries",
        ].join("\n"),
      );
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
