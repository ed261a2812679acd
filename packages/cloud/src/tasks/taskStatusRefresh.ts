import { cloudSchema } from "../database/migrations.js";
import { appendEvent, type Queryable } from "./taskEvents.js";
import { type StepStatus, type TaskStatus, taskStatusOf } from "./taskStatus.js";

/** Sets the task's status from its steps' (inside the caller's transaction) and says it. */
export async function refreshTaskStatus(
  db: Queryable,
  taskId: string,
  deviceId?: string,
): Promise<TaskStatus> {
  const steps = await db.query<{ status: StepStatus; attempt_no: number | null }>(
    `SELECT status, attempt_no FROM ${cloudSchema}.steps WHERE task_id = $1 ORDER BY step_index`,
    [taskId],
  );
  // One best-of-N attempt failing does not fail the task: the ranking after them decides.
  const status = taskStatusOf(
    steps.rows.map((row) => (row.attempt_no !== null && row.status === "failed" ? "completed" : row.status)),
  );
  const changed = await db.query(
    `UPDATE ${cloudSchema}.tasks SET status = $2, updated_at = now(),
       started_at = CASE WHEN $2 <> 'queued' THEN coalesce(started_at, now()) ELSE started_at END,
       completed_at = CASE WHEN $2 IN ('completed', 'failed', 'cancelled') THEN now() ELSE NULL END
     WHERE id = $1 AND status <> $2`,
    [taskId, status],
  );
  if ((changed.rowCount ?? 0) > 0) {
    await appendEvent(db, {
      taskId,
      kind: "status",
      level: status === "failed" ? "error" : "info",
      message: status,
      data: { status },
      deviceId,
    });
  }
  return status;
}
