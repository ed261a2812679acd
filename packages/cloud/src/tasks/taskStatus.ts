/** Where a task or one of its steps is. A step waiting on another is `queued` (pg-boss holds it). */
export type TaskStatus = "queued" | "running" | "needs_input" | "completed" | "failed" | "cancelled";

export const finishedStatuses: ReadonlySet<TaskStatus> = new Set(["completed", "failed", "cancelled"]);

export function isFinished(status: TaskStatus): boolean {
  return finishedStatuses.has(status);
}

/**
 * A task's status from its steps': a step that failed or was cancelled decides it; otherwise one
 * waiting for an answer, then one running; all completed is completed; else it is still queued.
 */
export function taskStatusOf(steps: readonly TaskStatus[]): TaskStatus {
  if (steps.length === 0) return "queued";
  if (steps.includes("cancelled")) return "cancelled";
  if (steps.includes("failed")) return "failed";
  if (steps.includes("needs_input")) return "needs_input";
  if (steps.includes("running")) return "running";
  if (steps.every((status) => status === "completed")) return "completed";
  // Some done, the next not claimed yet: the task is under way.
  if (steps.includes("completed")) return "running";
  return "queued";
}
