import type { CloudStep, CloudTask } from "@lathe/protocol";

/** One best-of-N attempt as the comparison shows it. */
export interface AttemptView {
  attempt: number;
  /** The attempt's latest step (a send-back repeats an attempt's step). */
  step: CloudStep;
  /** Its place in the reviewer's order, 1 for the best; absent when not ranked (yet). */
  rank?: number;
  /** Why it was left out of the ranking. */
  rejected?: string;
  /** Everything the task holds once this attempt is done: its changes. */
  patch: string;
  /** Completed, and its verify (if the pipeline has one) passed. */
  applicable: boolean;
}

/** The task's attempts, 1 to N, each with its latest step, rank and rejection. */
export function attemptsOf(task: CloudTask, steps: readonly CloudStep[]): AttemptView[] {
  const latest = new Map<number, CloudStep>();
  for (const step of steps) {
    if (step.attemptNo === null) continue;
    const seen = latest.get(step.attemptNo);
    if (seen === undefined || step.index > seen.index) latest.set(step.attemptNo, step);
  }
  const order = task.ranking?.order ?? [];
  const rejected = new Map((task.ranking?.rejected ?? []).map((entry) => [entry.attempt, entry.reason]));
  return [...latest.entries()]
    .sort(([a], [b]) => a - b)
    .map(([attempt, step]) => {
      const position = order.indexOf(attempt);
      return {
        attempt,
        step,
        rank: position === -1 ? undefined : position + 1,
        rejected: rejected.get(attempt),
        patch: step.taskPatch ?? "",
        applicable: step.status === "completed" && (step.verify === null || step.verify.passed),
      };
    });
}
