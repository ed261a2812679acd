import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import type pg from "pg";
import type { PgBoss } from "pg-boss";
import { cloudSchema } from "../database/migrations.js";
import type { TaskBudget, Usage } from "../pipelines/pipelineSpec.js";
import { cancelJobs } from "../queue/stepJobs.js";
import { appendEvent } from "./taskEvents.js";

/** Which limit of the budget the task has reached, said in a sentence; undefined while within. */
export function budgetReached(
  budget: TaskBudget | null,
  usage: Usage,
  startedAt: Date,
  now: Date,
): LatheErrorInfo | undefined {
  if (budget === null) return undefined;
  const tokens = usage.inputTokens + usage.outputTokens;
  if (budget.tokens !== undefined && tokens >= budget.tokens)
    return reached(
      `its token budget: ${tokens.toLocaleString("en-US")} tokens used of ${budget.tokens.toLocaleString("en-US")}`,
    );
  if (budget.costUsd !== undefined && usage.costUsd >= budget.costUsd)
    return reached(`its cost budget: $${usage.costUsd.toFixed(4)} spent of $${budget.costUsd.toFixed(2)}`);
  const seconds = Math.floor((now.getTime() - startedAt.getTime()) / 1000);
  if (budget.seconds !== undefined && seconds >= budget.seconds)
    return reached(`its time budget: ${seconds} s of ${budget.seconds} s`);
  return undefined;
}

/** The time a task has left under its budget, in ms; undefined when it has no time limit. */
export function timeLeftMs(budget: TaskBudget | null, startedAt: Date, now: Date): number | undefined {
  if (budget?.seconds === undefined) return undefined;
  return Math.max(0, startedAt.getTime() + budget.seconds * 1000 - now.getTime());
}

function reached(what: string): LatheErrorInfo {
  return errorInfo("E_BUDGET_EXCEEDED", `The task reached ${what}; it ends here.`);
}

/**
 * Ends a task that reached its budget, in the caller's transaction: the first step still to run
 * fails with the reason (so the task is failed, and says why), the others are cancelled, and a
 * worker running one is told to stop it.
 */
export async function endForBudget(
  client: pg.PoolClient,
  boss: PgBoss,
  taskId: string,
  reason: LatheErrorInfo,
  deviceId: string,
): Promise<void> {
  const open = await client.query<{ id: string; step_index: number; runs_on: string | null; status: string }>(
    `SELECT id, step_index, runs_on, status FROM ${cloudSchema}.steps
      WHERE task_id = $1 AND status IN ('waiting', 'queued', 'running', 'needs_input') ORDER BY step_index FOR UPDATE`,
    [taskId],
  );
  await appendEvent(client, {
    taskId,
    kind: "budget",
    level: "error",
    message: reason.message,
    data: { error: reason },
    deviceId,
  });
  await client.query(`UPDATE ${cloudSchema}.tasks SET error = $2 WHERE id = $1`, [
    taskId,
    JSON.stringify(reason),
  ]);
  if (open.rows.length === 0) return;
  const [first] = open.rows;
  await client.query(
    `UPDATE ${cloudSchema}.steps SET status = CASE WHEN step_index = $2 THEN 'failed' ELSE 'cancelled' END,
       error = CASE WHEN step_index = $2 THEN $3::jsonb END, lease = NULL, question = NULL,
       completed_at = now(), updated_at = now()
      WHERE task_id = $1 AND status IN ('waiting', 'queued', 'running', 'needs_input')`,
    [taskId, first?.step_index, JSON.stringify(reason)],
  );
  await cancelJobs(client, boss, open.rows);
  for (const row of open.rows.filter((each) => each.status === "running" || each.status === "needs_input"))
    await appendEvent(client, {
      taskId,
      stepIndex: row.step_index,
      kind: "cancel",
      message: `step ${row.step_index + 1} stopped: the task reached its budget`,
      deviceId,
    });
}
