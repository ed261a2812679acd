import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import type { AgentSpec, PipelineSpec, StepPurpose } from "./pipelineSpec.js";
import { rankingInstructions } from "./roleAgents.js";

/** One step as it is stored: a plain engine run, or an agent of a pipeline. */
export interface StepPlan {
  name: string;
  prompt: string;
  /** Indexes of earlier steps that must complete first; the step starts from their changes. */
  dependsOn: number[];
  agent?: AgentSpec;
  purpose?: StepPurpose;
  optional?: boolean;
  /** Runs on the submitting device only. */
  onDevice?: boolean;
  /** Best-of-N: which attempt (1-based) of the coding step this is. */
  attemptNo?: number;
}

/**
 * A pipeline's chain as steps. With `attempts` above one the coding step runs that many times side
 * by side from the same start, and the review step after it ranks them instead of reviewing one
 * (the steps after it build on the best).
 */
export function pipelineSteps(
  pipeline: PipelineSpec,
  prompt: string,
  attempts: number,
): { ok: true; steps: StepPlan[] } | { ok: false; error: LatheErrorInfo } {
  const coderAt = pipeline.steps.findIndex((step) => step.agent.name === pipeline.coder);
  if (coderAt === -1)
    return fail(`Pipeline ${pipeline.name} has no step ${pipeline.coder} to write the code.`);
  const reviewAt = pipeline.steps.findIndex((step) => step.purpose === "review");
  if (attempts > 1 && (reviewAt === -1 || reviewAt < coderAt))
    return fail(
      `Best-of-N needs a review step after ${pipeline.coder} to rank the attempts; pipeline ${pipeline.name} has none.`,
    );
  if (attempts > 1 && reviewAt !== coderAt + 1)
    return fail(
      `Best-of-N ranks right after ${pipeline.coder}: pipeline ${pipeline.name} has steps between it and the review.`,
    );
  const steps: StepPlan[] = [];
  let previous: number[] = [];
  for (const [position, step] of pipeline.steps.entries()) {
    const base = {
      prompt,
      agent: step.agent,
      optional: step.optional,
      onDevice: step.onDevice,
    };
    if (position === coderAt && attempts > 1) {
      const attemptIndexes: number[] = [];
      for (let attempt = 1; attempt <= attempts; attempt++) {
        attemptIndexes.push(steps.length);
        steps.push({
          ...base,
          name: `${step.agent.name} #${attempt}`,
          purpose: "work",
          optional: false,
          dependsOn: previous,
          attemptNo: attempt,
        });
      }
      previous = attemptIndexes;
      continue;
    }
    const ranks = attempts > 1 && position === reviewAt;
    steps.push({
      ...base,
      // Ranking is not reviewing: the review's verdict line would contradict the ranking asked for.
      agent: ranks
        ? { ...step.agent, instructions: rankingInstructions(steps.flatMap((each) => each.attemptNo ?? [])) }
        : step.agent,
      name: ranks ? `${step.agent.name} (ranking)` : step.agent.name,
      purpose: ranks ? "rank" : step.purpose,
      // The coder and a ranking always run: there is nothing to hand on without them.
      optional: position === coderAt || ranks ? false : step.optional,
      dependsOn: previous,
    });
    previous = [steps.length - 1];
  }
  return { ok: true, steps };
}

function fail(message: string): { ok: false; error: LatheErrorInfo } {
  return { ok: false, error: errorInfo("E_PIPELINE", message) };
}
