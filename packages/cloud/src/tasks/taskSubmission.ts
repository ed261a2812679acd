import { randomUUID } from "node:crypto";
import type pg from "pg";
import type { PgBoss } from "pg-boss";
import { cloudSchema } from "../database/migrations.js";
import { inTransaction } from "../database/transaction.js";
import { deadStepQueue, queueTimings, type StepJob, stepQueue } from "../queue/stepQueue.js";
import type { RouteTarget } from "../router/taskRouter.js";
import { appendEvent } from "./taskEvents.js";
import { readTask, type TaskRecord } from "./taskRecords.js";

export interface StepPlan {
  name: string;
  prompt: string;
  /** Indexes of earlier steps that must complete first; the step starts from their changes. */
  dependsOn: number[];
}

export interface TaskSubmission {
  owner: string;
  deviceId: string;
  prompt: string;
  steps: StepPlan[];
  /** A clone URL or path the workers can reach; absent when the repository comes as a bundle. */
  repoUrl?: string;
  ref?: string;
  bundle?: Buffer;
  model?: string;
  approvalMode: string;
  priority: number;
  timeoutSeconds: number;
  maxRetries: number;
  route: { target: RouteTarget; reason: string };
}

/**
 * Stores a task, its steps and its bundle, and queues the steps as one pg-boss flow, all in one
 * transaction: a task is either wholly queued or not there at all. Each step's job id is the
 * step's id, so a step can never be queued twice.
 */
export async function submitTask(
  pool: pg.Pool,
  boss: PgBoss,
  submission: TaskSubmission,
): Promise<TaskRecord> {
  const taskId = randomUUID();
  const title = titleOf(submission.prompt);
  await inTransaction(pool, async (client) => {
    await client.query(
      `INSERT INTO ${cloudSchema}.tasks (id, owner, device_id, title, prompt, route, route_reason, repo_url, ref,
         has_bundle, model, approval_mode, status, priority, timeout_seconds, max_retries)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'queued', $13, $14, $15)`,
      [
        taskId,
        submission.owner,
        submission.deviceId,
        title,
        submission.prompt,
        submission.route.target,
        submission.route.reason,
        submission.repoUrl ?? null,
        submission.ref ?? null,
        submission.bundle !== undefined,
        submission.model ?? null,
        submission.approvalMode,
        submission.priority,
        submission.timeoutSeconds,
        submission.maxRetries,
      ],
    );
    if (submission.bundle !== undefined) {
      await client.query(`INSERT INTO ${cloudSchema}.bundles (task_id, size, bytes) VALUES ($1, $2, $3)`, [
        taskId,
        submission.bundle.length,
        submission.bundle,
      ]);
    }
    const stepIds = submission.steps.map(() => randomUUID());
    for (const [index, step] of submission.steps.entries()) {
      await client.query(
        `INSERT INTO ${cloudSchema}.steps (id, task_id, step_index, name, prompt, depends_on, status, job_id)
         VALUES ($1, $2, $3, $4, $5, $6, 'queued', $1)`,
        [stepIds[index], taskId, index, step.name, step.prompt, step.dependsOn],
      );
    }
    const jobs = submission.steps.map((step, index) => ({
      ref: String(index),
      name: stepQueue,
      data: { taskId, stepIndex: index } satisfies StepJob,
      options: { id: stepIds[index], ...jobOptions(submission) },
      dependsOn: step.dependsOn.map(String),
    }));
    const db = transactionDb(client);
    // A flow holds two jobs at least; a one-step task is one job.
    const [only] = jobs;
    if (jobs.length === 1 && only !== undefined)
      await boss.send(stepQueue, only.data, { ...only.options, db });
    else await boss.flow(jobs, { db });
    await appendEvent(client, {
      taskId,
      kind: "status",
      message: `queued (${submission.route.target}: ${submission.route.reason})`,
      data: { status: "queued", route: submission.route },
      deviceId: submission.deviceId,
    });
  });
  const stored = await readTask(pool, taskId);
  if (stored === undefined) throw new Error(`task ${taskId} vanished after it was stored`);
  return stored;
}

/** A step job's options: the task's priority, retries with backoff, timeout and dead letters. */
export function jobOptions(task: { priority: number; maxRetries: number; timeoutSeconds: number }) {
  return {
    priority: task.priority,
    retryLimit: task.maxRetries,
    retryBackoff: true,
    retryDelay: queueTimings.retryDelaySeconds,
    retryDelayMax: queueTimings.retryDelayMaxSeconds,
    expireInSeconds: task.timeoutSeconds,
    heartbeatSeconds: queueTimings.heartbeatSeconds,
    deadLetter: deadStepQueue,
  };
}

/** pg-boss's statements run on our transaction's connection, so they commit with it. */
export function transactionDb(client: pg.PoolClient) {
  return {
    executeSql: async (text: string, values?: unknown[]) => {
      const result = await client.query(text, values as unknown[] | undefined);
      return { rows: result.rows };
    },
  };
}

function titleOf(prompt: string): string {
  const line = prompt.trim().split("\n")[0] ?? "";
  return line.length > 80 ? `${line.slice(0, 77)}…` : line;
}
