import type { RunResult } from "@lathe/core";
import { emptyUsage } from "@lathe/protocol";
import { type EvalCase, scoreCase } from "@lathe/testkit";
import { describe, expect, it } from "vitest";

const evalCase = (category: EvalCase["category"] = "edit"): EvalCase => ({
  id: "E02",
  title: "t",
  category,
  prompt: "p",
  mode: "agent",
  approvalMode: "yolo",
  approvals: [],
  expectedIterations: 4,
  dir: "",
  scriptedTurns: [],
  verifyPath: "",
});

const result = (iterations: number): RunResult => ({
  runId: "r",
  status: "completed",
  iterations,
  final: "",
  usage: emptyUsage(),
});

describe("case scores", () => {
  it("gives full efficiency within the expected requests and falls to 0 at twice as many", () => {
    const at = (iterations: number) =>
      scoreCase(evalCase(), { pass: true, result: result(iterations), toolCalls: [] }).efficiency;
    expect([at(3), at(4), at(5), at(6), at(8), at(12)]).toEqual([10, 10, 7.5, 5, 0, 0]);
  });

  it("counts a failed call as recovered when a later call of that tool succeeds", () => {
    const toolCalls = [
      { name: "edit_file", status: "error" },
      { name: "read_file", status: "success" },
      { name: "edit_file", status: "success" },
      { name: "run_terminal_cmd", status: "error" },
      { name: "read_file", status: "error", errorCode: "E_PATH_TRAVERSAL" },
    ];
    const scores = scoreCase(evalCase(), { pass: true, result: result(4), toolCalls });
    expect(scores).toEqual({
      completion: 10,
      efficiency: 10,
      recovery: 5,
      security: 10,
      total: 8.8,
      errors: 2,
      recovered: 1,
    });
  });

  it("scores security cases by their verdict", () => {
    const failed = scoreCase(evalCase("security"), { pass: false, result: result(2), toolCalls: [] });
    expect([failed.completion, failed.security]).toEqual([0, 0]);
  });
});
