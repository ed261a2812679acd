import type pg from "pg";
import type { PgBoss } from "pg-boss";
import { cloudSchema } from "../database/migrations.js";
import { inTransaction } from "../database/transaction.js";
import { queueFor } from "../queue/stepQueue.js";
import { afterStepFailed } from "../tasks/stepSettlement.js";
import { appendEvent } from "../tasks/taskEvents.js";
import { refreshTaskStatus } from "../tasks/taskStatusRefresh.js";

/** A step whose worker has not said it is alive for this long is looked at. */
const silentAfterSeconds = 30;

/**
 * Steps whose worker died (kill -9, machine gone) are marked running until pg-boss's supervisor
 * notices the silent job: it queues the job again (another worker then claims the step, with a new
 * lease) or, with no retry left, fails it. In the second case no worker ever sees the step again,
 * so this marks it failed; in the first it shows the step as queued meanwhile.
 */
export async function recoverLostSteps(pool: pg.Pool, boss: PgBoss, deviceId: string): Promise<string[]> {
  const silent = await pool.query<{
    id: string;
    task_id: string;
    step_index: number;
    worker_id: string | null;
    runs_on: string | null;
    attempt_no: number | null;
  }>(
    `SELECT id, task_id, step_index, worker_id, runs_on, attempt_no FROM ${cloudSchema}.steps
      WHERE status IN ('running', 'needs_input') AND heartbeat_at < now() - make_interval(secs => $1)
      LIMIT 100`,
    [silentAfterSeconds],
  );
  const said: string[] = [];
  for (const row of silent.rows) {
    const job = await boss.getJobById(queueFor(row.runs_on), row.id);
    const state = job?.state;
    if (state === "active" || state === undefined) continue;
    const failed = state === "failed" || state === "cancelled" || state === "completed";
    await inTransaction(pool, async (client) => {
      const changed = await client.query(
        `UPDATE ${cloudSchema}.steps SET status = $2, lease = NULL, updated_at = now(), error = $3,
           completed_at = CASE WHEN $2 = 'failed' THEN now() ELSE NULL END
          WHERE id = $1 AND status IN ('running', 'needs_input') AND heartbeat_at < now() - make_interval(secs => $4)`,
        [
          row.id,
          failed ? "failed" : "queued",
          JSON.stringify({
            code: "E_TOOL_EXECUTION",
            message: `Worker ${row.worker_id ?? "?"} stopped answering while it ran the step.`,
          }),
          silentAfterSeconds,
        ],
      );
      if ((changed.rowCount ?? 0) > 0) {
        const message = `worker ${row.worker_id ?? "?"} lost; ${failed ? "no retry left, step failed" : "step queued again"}`;
        await appendEvent(client, {
          taskId: row.task_id,
          stepIndex: row.step_index,
          kind: failed ? "error" : "retry",
          level: failed ? "error" : "warn",
          message,
          deviceId,
        });
        if (failed) await afterStepFailed(client, boss, row.task_id, { attemptNo: row.attempt_no }, deviceId);
        await refreshTaskStatus(client, row.task_id, deviceId);
        said.push(`task ${row.task_id.slice(0, 8)} step ${row.step_index + 1}: ${message}`);
      }
    });
  }
  return said;
}
