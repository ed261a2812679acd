import type pg from "pg";
import type { PgBoss } from "pg-boss";
import { cloudSchema } from "../database/migrations.js";
import { inTransaction } from "../database/transaction.js";
import type { Usage } from "../pipelines/pipelineSpec.js";
import { afterStepCompleted } from "../tasks/stepSettlement.js";
import { appendEvent } from "../tasks/taskEvents.js";
import {
  readStep,
  readTask,
  type StepRecord,
  type TaskRecord,
  type VerifyResult,
} from "../tasks/taskRecords.js";
import { refreshTaskStatus } from "../tasks/taskStatusRefresh.js";

/** An attempt's hold on a step: every write of the attempt names its lease. */
export interface StepLease {
  taskId: string;
  stepIndex: number;
  lease: string;
}

/**
 * Takes the step for an attempt under a new lease: undefined when there is nothing to do (the step
 * finished, or was cancelled). A step still marked running or waiting belongs to an attempt whose
 * worker is gone (pg-boss gave its job back), and is taken over.
 */
export async function claimStep(
  pool: pg.Pool,
  deviceId: string,
  taskId: string,
  stepIndex: number,
  lease: string,
  attemptNumber: number,
): Promise<{ task: TaskRecord; step: StepRecord } | undefined> {
  return inTransaction(pool, async (client) => {
    const taken = await client.query(
      `UPDATE ${cloudSchema}.steps SET status = 'running', lease = $3, worker_id = $4, attempt = $5,
         started_at = now(), heartbeat_at = now(), question = NULL, answer = NULL, updated_at = now()
        WHERE task_id = $1 AND step_index = $2 AND status IN ('queued', 'running', 'needs_input')`,
      [taskId, stepIndex, lease, deviceId, attemptNumber],
    );
    // Not claimable: the update changed nothing, so committing it is harmless.
    if ((taken.rowCount ?? 0) === 0) return undefined;
    await appendEvent(client, {
      taskId,
      stepIndex,
      kind: "step",
      message: `step ${stepIndex + 1} started on ${deviceId}${attemptNumber > 0 ? ` (attempt ${attemptNumber + 1})` : ""}`,
      data: { status: "running", worker: deviceId, attempt: attemptNumber },
      deviceId,
    });
    await refreshTaskStatus(client, taskId, deviceId);
    const task = await readTask(client, taskId);
    const step = await readStep(client, taskId, stepIndex);
    return task === undefined || step === undefined ? undefined : { task, step };
  });
}

export interface StepResult {
  /** The step's own changes. */
  stepPatch: string;
  /** The task's changes up to and including this step. */
  taskPatch: string;
  /** The model's final answer. */
  answer: string;
  /** The branch the task's changes were pushed to, when this step pushed it. */
  branch: string | null;
  /** The project's check, when the step ran it. */
  verify: VerifyResult | null;
  usage: Usage;
}

/**
 * Stores a step's result in one transaction — the step, the result event, what follows from it
 * (the task's patch, a review's verdict, the next steps queued), the task's status — if the attempt
 * still holds the step. False when its lease was lost: another attempt owns the step, and this
 * result is dropped, so a result is applied once.
 */
export async function completeStep(
  pool: pg.Pool,
  boss: PgBoss,
  deviceId: string,
  held: StepLease,
  result: StepResult,
): Promise<boolean> {
  return inTransaction(pool, async (client) => {
    const done = await client.query(
      `UPDATE ${cloudSchema}.steps SET status = 'completed', patch = $4, summary = $5, task_patch = $6, verify = $7,
         usage = $8, lease = NULL, completed_at = now(), updated_at = now()
        WHERE task_id = $1 AND step_index = $2 AND lease = $3 AND status = 'running'`,
      [
        held.taskId,
        held.stepIndex,
        held.lease,
        result.stepPatch,
        result.answer.slice(0, 20_000),
        result.taskPatch,
        result.verify === null ? null : JSON.stringify(result.verify),
        JSON.stringify(result.usage),
      ],
    );
    // The lease was lost: the update changed nothing, so committing it is harmless.
    if ((done.rowCount ?? 0) === 0) return false;
    if (result.branch !== null)
      await client.query(`UPDATE ${cloudSchema}.tasks SET branch = $2, updated_at = now() WHERE id = $1`, [
        held.taskId,
        result.branch,
      ]);
    await appendEvent(client, {
      taskId: held.taskId,
      stepIndex: held.stepIndex,
      kind: "result",
      message:
        result.answer.trim() === "" ? `step ${held.stepIndex + 1} completed` : result.answer.slice(0, 2_000),
      data: { changedFiles: changedFiles(result.stepPatch), usage: result.usage },
      deviceId,
    });
    await afterStepCompleted(client, boss, held.taskId, held.stepIndex, deviceId);
    await refreshTaskStatus(client, held.taskId, deviceId);
    return true;
  });
}

function changedFiles(patch: string): string[] {
  return [...patch.matchAll(/^diff --git a\/(.+?) b\//gm)].map((match) => match[1] ?? "");
}
