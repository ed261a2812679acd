/** Where a task is. */
export type TaskStatus = "queued" | "running" | "needs_input" | "completed" | "failed" | "cancelled";

/**
 * Where a step is: `waiting` for the steps it depends on (no job yet), `skipped` when the pipeline
 * left it out (an optional step an earlier one said was not needed).
 */
export type StepStatus = TaskStatus | "waiting" | "skipped";

export const finishedStatuses: ReadonlySet<TaskStatus> = new Set(["completed", "failed", "cancelled"]);

export function isFinished(status: TaskStatus): boolean {
  return finishedStatuses.has(status);
}

/**
 * A task's status from its steps': a step that failed decides it (a budget ends a task by failing
 * the step that reached it and cancelling the rest), then one cancelled; otherwise one waiting for
 * an answer, then one running; all done (completed or skipped) is completed; else it is queued.
 */
export function taskStatusOf(steps: readonly StepStatus[]): TaskStatus {
  if (steps.length === 0) return "queued";
  if (steps.includes("failed")) return "failed";
  if (steps.includes("cancelled")) return "cancelled";
  if (steps.includes("needs_input")) return "needs_input";
  if (steps.includes("running")) return "running";
  const done = (status: StepStatus) => status === "completed" || status === "skipped";
  if (steps.every(done)) return "completed";
  // Some done, the next not claimed yet: the task is under way.
  if (steps.some(done)) return "running";
  return "queued";
}
