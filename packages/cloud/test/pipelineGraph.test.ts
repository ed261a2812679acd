import { describe, expect, it } from "vitest";
import { defaultPipeline, type PipelineSpec, quickPipeline, rankingInstructions } from "../src/index.js";
import { pipelineSteps } from "../src/pipelines/pipelineGraph.js";

const shape = (pipeline: PipelineSpec, attempts: number) => {
  const planned = pipelineSteps(pipeline, "do it", attempts);
  if (!planned.ok) throw new Error(planned.error.message);
  return planned.steps.map((step) => [
    step.name,
    step.purpose,
    step.dependsOn,
    step.optional,
    step.attemptNo ?? null,
  ]);
};

describe("pipelineSteps", () => {
  it("lays a pipeline out as a chain, each step after the one before", () => {
    expect(shape(defaultPipeline, 1)).toEqual([
      ["planner", "work", [], false, null],
      ["researcher", "work", [0], true, null],
      ["coder", "work", [1], false, null],
      ["reviewer", "review", [2], false, null],
      ["documenter", "work", [3], true, null],
    ]);
  });

  it("fans the coder out into attempts from the same start, and ranks them after all of them", () => {
    expect(shape(defaultPipeline, 3)).toEqual([
      ["planner", "work", [], false, null],
      ["researcher", "work", [0], true, null],
      ["coder #1", "work", [1], false, 1],
      ["coder #2", "work", [1], false, 2],
      ["coder #3", "work", [1], false, 3],
      ["reviewer (ranking)", "rank", [2, 3, 4], false, null],
      ["documenter", "work", [5], true, null],
    ]);
    const planned = pipelineSteps(quickPipeline, "do it", 2);
    expect(planned.ok && planned.steps[2]?.agent?.instructions).toBe(rankingInstructions([1, 2]));
    expect(planned.ok && planned.steps[2]?.agent?.readonly).toBe(true);
  });

  it.each([
    [
      "no coder step",
      { ...quickPipeline, coder: "builder" },
      1,
      "Pipeline quick has no step builder to write the code.",
    ],
    [
      "attempts without a review",
      { ...quickPipeline, steps: quickPipeline.steps.slice(0, 1) },
      2,
      "Best-of-N needs a review step after coder to rank the attempts; pipeline quick has none.",
    ],
    [
      "a step between the coder and the review",
      {
        ...quickPipeline,
        steps: [quickPipeline.steps[0]!, defaultPipeline.steps[4]!, quickPipeline.steps[1]!],
      },
      2,
      "Best-of-N ranks right after coder: pipeline quick has steps between it and the review.",
    ],
  ])("refuses %s with E_PIPELINE", (_what, pipeline, attempts, message) => {
    const planned = pipelineSteps(pipeline as PipelineSpec, "do it", attempts);
    expect(planned).toEqual({ ok: false, error: expect.objectContaining({ code: "E_PIPELINE", message }) });
  });
});
