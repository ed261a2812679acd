import { errorInfo } from "@lathe/protocol";
import type pg from "pg";
import type { PgBoss } from "pg-boss";
import { cloudSchema } from "../database/migrations.js";
import { inTransaction } from "../database/transaction.js";
import { cancelJobs, transactionDb } from "../queue/stepJobs.js";
import { deadStepQueue, queueFor, type StepJob } from "../queue/stepQueue.js";
import { releaseReadySteps } from "./stepRelease.js";
import { appendEvent } from "./taskEvents.js";
import {
  lockTask,
  readStep,
  readTask,
  type StepRecord,
  type TaskRecord,
  type TaskResult,
} from "./taskRecords.js";
import { isFinished } from "./taskStatus.js";
import { refreshTaskStatus } from "./taskStatusRefresh.js";

/**
 * Changes a task in one transaction, its row locked first (of two cancels or retries at once, the
 * second sees what the first did), when its status is one `change` accepts; then reads it back.
 */
async function changeTask(
  pool: pg.Pool,
  taskId: string,
  refusal: (task: TaskRecord) => string | undefined,
  change: (client: pg.PoolClient, task: TaskRecord) => Promise<void>,
): Promise<TaskResult<TaskRecord>> {
  const missing = { ok: false as const, error: errorInfo("E_TASK_NOT_FOUND", `No task ${taskId}.`) };
  const refused = await inTransaction(pool, async (client): Promise<TaskResult<TaskRecord> | undefined> => {
    await lockTask(client, taskId);
    const task = await readTask(client, taskId);
    if (task === undefined) return missing;
    const why = refusal(task);
    if (why !== undefined) return { ok: false, error: errorInfo("E_TASK_STATE", why) };
    await change(client, task);
    return undefined;
  });
  if (refused !== undefined) return refused;
  const task = await readTask(pool, taskId);
  return task === undefined ? missing : { ok: true, value: task };
}

/**
 * Cancels a task: its unfinished steps are marked cancelled, their jobs cancelled in pg-boss, and a
 * `cancel` event tells the worker running one (it listens) to stop the step's process group.
 */
export function cancelTask(
  pool: pg.Pool,
  boss: PgBoss,
  taskId: string,
  deviceId: string,
): Promise<TaskResult<TaskRecord>> {
  const refusal = (task: TaskRecord) =>
    isFinished(task.status) ? `Task ${taskId} is ${task.status} already.` : undefined;
  return changeTask(pool, taskId, refusal, async (client) => {
    const stopped = await client.query<{ id: string; step_index: number; runs_on: string | null }>(
      `UPDATE ${cloudSchema}.steps SET status = 'cancelled', lease = NULL, updated_at = now(), completed_at = now()
        WHERE task_id = $1 AND status IN ('waiting', 'queued', 'running', 'needs_input') RETURNING id, step_index, runs_on`,
      [taskId],
    );
    await cancelJobs(client, boss, stopped.rows);
    for (const row of stopped.rows) {
      await appendEvent(client, {
        taskId,
        stepIndex: row.step_index,
        kind: "cancel",
        message: `step ${row.step_index + 1} cancelled`,
        deviceId,
      });
    }
    await refreshTaskStatus(client, taskId, deviceId);
  });
}

/**
 * Runs a failed or cancelled task again: its unfinished steps wait again and those whose
 * dependencies are done go back to the queue as new jobs under the same ids, retries counted afresh.
 */
export function retryTask(
  pool: pg.Pool,
  boss: PgBoss,
  taskId: string,
  deviceId: string,
): Promise<TaskResult<TaskRecord>> {
  const refusal = (task: TaskRecord) =>
    task.status === "failed" || task.status === "cancelled"
      ? undefined
      : `Task ${taskId} is ${task.status}: only a failed or cancelled task is retried.`;
  return changeTask(pool, taskId, refusal, async (client, task) => {
    const again = await client.query<{ id: string; runs_on: string | null }>(
      `UPDATE ${cloudSchema}.steps SET status = 'waiting', error = NULL, question = NULL, answer = NULL, lease = NULL,
         worker_id = NULL, completed_at = NULL, released_at = NULL, updated_at = now()
        WHERE task_id = $1 AND status IN ('failed', 'cancelled') RETURNING id, runs_on`,
      [taskId],
    );
    const ids = again.rows.map((row) => row.id);
    const db = transactionDb(client);
    // The old jobs are deleted and sent afresh under the same ids (a failed job's retry count and a
    // cancelled job's state are history, not the new run), and their copies leave the dead-letter
    // queue: what it holds is what still needs someone's attention.
    for (const queue of new Set(again.rows.map((row) => queueFor(row.runs_on))))
      await boss.deleteJob(queue, ids, { db });
    const dead = await boss.findJobs<StepJob>(deadStepQueue, { data: { taskId }, db });
    if (dead.length > 0)
      await boss.deleteJob(
        deadStepQueue,
        dead.map((job) => job.id),
        { db },
      );
    await releaseReadySteps(client, boss, task.id, deviceId);
    await client.query(`UPDATE ${cloudSchema}.tasks SET error = NULL WHERE id = $1`, [taskId]);
    await appendEvent(client, {
      taskId,
      kind: "retry",
      message: `retried (${ids.length} step(s))`,
      deviceId,
    });
    await refreshTaskStatus(client, taskId, deviceId);
  });
}

/** The question a device step asks its own device before it runs there (the seed's LocalExecutionPrompt). */
export const runHereQuestion = "run_here";

export interface StepAnswer {
  allow: boolean;
  message?: string;
}

/**
 * Answers the question a paused step waits on (an approval nobody at the worker could give). The
 * first answer wins: the step goes back to running, and the worker, listening, resumes it.
 */
export async function answerTask(
  pool: pg.Pool,
  taskId: string,
  answer: StepAnswer,
  deviceId: string,
  stepIndex?: number,
): Promise<TaskResult<StepRecord>> {
  const answered = await inTransaction(pool, async (client): Promise<TaskResult<number>> => {
    const asked = await client.query<{
      step_index: number;
      runs_on: string | null;
      question: { kind?: unknown } | null;
    }>(
      `SELECT step_index, runs_on, question FROM ${cloudSchema}.steps
        WHERE task_id = $1 AND status = 'needs_input' AND ($2::integer IS NULL OR step_index = $2)
        ORDER BY step_index LIMIT 1 FOR UPDATE`,
      [taskId, stepIndex ?? null],
    );
    const row = asked.rows[0];
    if (row === undefined)
      return {
        ok: false,
        error: errorInfo(
          "E_TASK_STATE",
          stepIndex === undefined
            ? `Task ${taskId} is not waiting for an answer.`
            : `Step ${stepIndex + 1} of task ${taskId} is not waiting for an answer.`,
        ),
      };
    // Running a step on a machine is that machine's user's decision: no other device gives it.
    if (row.question?.kind === runHereQuestion && row.runs_on !== deviceId)
      return {
        ok: false,
        error: errorInfo(
          "E_TASK_STATE",
          `Step ${row.step_index + 1} asks to run on device ${row.runs_on}: only that device can consent (this is ${deviceId}).`,
        ),
      };
    await client.query(
      `UPDATE ${cloudSchema}.steps SET answer = $3, status = 'running', updated_at = now()
        WHERE task_id = $1 AND step_index = $2`,
      [taskId, row.step_index, JSON.stringify({ ...answer, deviceId })],
    );
    await appendEvent(client, {
      taskId,
      stepIndex: row.step_index,
      kind: "answer",
      message: answer.allow ? "allowed" : `refused${answer.message ? `: ${answer.message}` : ""}`,
      data: answer,
      deviceId,
    });
    await refreshTaskStatus(client, taskId, deviceId);
    return { ok: true, value: row.step_index };
  });
  if (!answered.ok) return answered;
  const step = await readStep(pool, taskId, answered.value);
  if (step === undefined) return { ok: false, error: errorInfo("E_TASK_NOT_FOUND", `No task ${taskId}.`) };
  return { ok: true, value: step };
}
