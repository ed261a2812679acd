import { describe, expect, it } from "vitest";
import type { StepRecord } from "../src/index.js";
import { lineageOf } from "../src/worker/stepLineage.js";

/** A step record with only what the lineage reads set. */
function step(index: number, dependsOn: number[], extra: Partial<StepRecord> = {}): StepRecord {
  return {
    taskId: "t",
    index,
    id: `s${index}`,
    name: `step ${index}`,
    prompt: "",
    dependsOn,
    status: "completed",
    attempt: 0,
    workerId: null,
    lease: null,
    question: null,
    answer: null,
    patch: null,
    summary: null,
    error: null,
    heartbeatAt: null,
    startedAt: null,
    completedAt: null,
    agent: null,
    purpose: "work",
    optional: false,
    runsOn: null,
    attemptNo: null,
    sentBackBy: null,
    verify: null,
    verdict: null,
    taskPatch: null,
    usage: null,
    ...extra,
  };
}

const indexes = (found: StepRecord[]) => found.map((each) => each.index);

describe("lineageOf", () => {
  it("is every step a step builds on, in step order, through a send-back", () => {
    // planner, coder, review, documenter (rewired after the send-back), coder again, review again.
    const steps = [step(0, []), step(1, [0]), step(2, [1]), step(3, [5]), step(4, [2]), step(5, [4])];
    expect(indexes(lineageOf(steps[3]!, steps))).toEqual([0, 1, 2, 4, 5]);
    expect(indexes(lineageOf(steps[4]!, steps))).toEqual([0, 1, 2]);
  });

  it("goes through a ranking to its best attempt only, and a ranking builds on what its attempts share", () => {
    const rank = step(4, [1, 2, 3], {
      purpose: "rank",
      verdict: { decision: "rank", notes: "", order: [2, 3] },
    });
    const steps = [
      step(0, []),
      step(1, [0], { attemptNo: 1 }),
      step(2, [0], { attemptNo: 2 }),
      step(3, [0], { attemptNo: 3 }),
      rank,
      step(5, [4]),
    ];
    expect(indexes(lineageOf(steps[5]!, steps))).toEqual([0, 2, 4]);
    expect(indexes(lineageOf(rank, steps))).toEqual([0]);
  });
});
