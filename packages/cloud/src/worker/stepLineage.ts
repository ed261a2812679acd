import type { StepRecord } from "../tasks/taskRecords.js";

/**
 * The steps a step builds on, directly or through others, in step order (each before what depends
 * on it, since a step is always added after its dependencies). Through a ranking only the best
 * attempt counts; a ranking itself builds on what its attempts share, not on any one attempt.
 */
export function lineageOf(step: StepRecord, steps: readonly StepRecord[]): StepRecord[] {
  const byIndex = new Map(steps.map((each) => [each.index, each]));
  const found = new Set<number>();
  const visit = (parents: readonly number[]) => {
    for (const index of parents) {
      const parent = byIndex.get(index);
      if (parent === undefined || found.has(index)) continue;
      found.add(index);
      visit(parentsOf(parent, byIndex));
    }
  };
  if (step.purpose === "rank") {
    for (const index of step.dependsOn) visit(byIndex.get(index)?.dependsOn ?? []);
  } else visit(parentsOf(step, byIndex));
  return [...found].sort((a, b) => a - b).flatMap((index) => byIndex.get(index) ?? []);
}

/** Whom a step hands its work on from: a ranking hands on its best attempt only. */
function parentsOf(step: StepRecord, byIndex: Map<number, StepRecord>): readonly number[] {
  if (step.purpose !== "rank") return step.dependsOn;
  const best = step.verdict?.order?.[0];
  const winner = step.dependsOn.find((index) => byIndex.get(index)?.attemptNo === best);
  return winner === undefined ? [] : [winner];
}
