import type { CloudStep, CloudTask } from "@lathe/protocol";
import { describe, expect, it } from "vitest";
import { stepColumns } from "../src/cloud/stepColumns.js";
import { attemptsOf } from "../src/cloud/taskAttempts.js";

function step(index: number, name: string, dependsOn: number[], extra: Partial<CloudStep> = {}): CloudStep {
  return {
    index,
    name,
    status: "completed",
    dependsOn,
    agent: null,
    purpose: "work",
    optional: false,
    runsOn: null,
    attemptNo: null,
    sentBackBy: null,
    workerId: "worker-1",
    retries: 0,
    question: null,
    verify: null,
    verdict: null,
    summary: null,
    error: null,
    usage: null,
    taskPatch: null,
    startedAt: null,
    completedAt: null,
    ...extra,
  };
}

const names = (columns: CloudStep[][]) => columns.map((column) => column.map((entry) => entry.name));

describe("the step graph's columns", () => {
  it("puts best-of-N attempts side by side, between what they start from and the ranking", () => {
    const steps = [
      step(0, "planner", []),
      step(1, "coder #1", [0], { attemptNo: 1 }),
      step(2, "coder #2", [0], { attemptNo: 2 }),
      step(3, "coder #3", [0], { attemptNo: 3 }),
      step(4, "reviewer (ranking)", [1, 2, 3], { purpose: "rank" }),
    ];
    expect(names(stepColumns(steps))).toEqual([
      ["planner"],
      ["coder #1", "coder #2", "coder #3"],
      ["reviewer (ranking)"],
    ]);
  });

  it("follows a send-back's steps, which come last in the list but run before the documenter", () => {
    // As the pipeline stores them: the documenter (4) was made to wait on the review again (6).
    const steps = [
      step(0, "planner", []),
      step(1, "researcher", [0], { status: "skipped" }),
      step(2, "coder", [1]),
      step(3, "reviewer", [2]),
      step(4, "documenter", [6]),
      step(5, "coder (sent back)", [3], { sentBackBy: 3 }),
      step(6, "reviewer (again)", [5]),
    ];
    expect(names(stepColumns(steps))).toEqual([
      ["planner"],
      ["researcher"],
      ["coder"],
      ["reviewer"],
      ["coder (sent back)"],
      ["reviewer (again)"],
      ["documenter"],
    ]);
  });

  it("places a plain task's one step alone, and survives a dependency on a step it does not know", () => {
    expect(names(stepColumns([step(0, "task", [])]))).toEqual([["task"]]);
    expect(names(stepColumns([step(0, "a", []), step(1, "b", [7])]))).toEqual([["a", "b"]]);
  });
});

describe("best-of-N attempts compared", () => {
  const task = {
    ranking: {
      order: [3, 1],
      rejected: [{ attempt: 2, reason: "its check failed (exit 1)" }],
      reason: "3 is smaller",
    },
  } as CloudTask;
  const verify = (passed: boolean) => ({ command: "npm test", passed, exitCode: passed ? 0 : 1, output: "" });

  it("gives each attempt its latest step, its rank or rejection, and whether it can be applied", () => {
    const steps = [
      step(0, "coder #1", [], { attemptNo: 1, verify: verify(true), taskPatch: "one" }),
      step(1, "coder #2", [], { attemptNo: 2, verify: verify(false), taskPatch: "two" }),
      step(2, "coder #3", [], { attemptNo: 3, verify: verify(false), taskPatch: "three, first try" }),
      step(3, "reviewer (ranking)", [0, 1, 2], { purpose: "rank" }),
      // Attempt 3 again (a send-back): the latest run is the one that counts.
      step(4, "coder #3 (sent back)", [3], { attemptNo: 3, verify: verify(true), taskPatch: "three" }),
    ];
    const views = attemptsOf(task, steps);
    expect(
      views.map((view) => [
        view.attempt,
        view.step.index,
        view.rank,
        view.rejected,
        view.patch,
        view.applicable,
      ]),
    ).toEqual([
      [1, 0, 2, undefined, "one", true],
      [2, 1, undefined, "its check failed (exit 1)", "two", false],
      [3, 4, 1, undefined, "three", true],
    ]);
  });

  it("offers no attempt that has not completed, and one without a verify once it has", () => {
    const steps = [
      step(0, "coder #1", [], { attemptNo: 1, status: "running" }),
      step(1, "coder #2", [], { attemptNo: 2 }),
    ];
    expect(attemptsOf({ ranking: null } as CloudTask, steps).map((view) => view.applicable)).toEqual([
      false,
      true,
    ]);
  });
});
