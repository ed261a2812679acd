import { randomUUID } from "node:crypto";
import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import type pg from "pg";
import type { PgBoss } from "pg-boss";
import { cloudSchema } from "../database/migrations.js";
import { inTransaction } from "../database/transaction.js";
import { deadStepQueue, queueTimings, type StepJob, stepQueue } from "../queue/stepQueue.js";
import type { RouteTarget } from "../router/taskRouter.js";
import { appendEvent, type Queryable } from "./taskEvents.js";
import { isFinished, type TaskStatus, taskStatusOf } from "./taskStatus.js";

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

export interface TaskRecord {
  id: string;
  owner: string;
  deviceId: string;
  title: string;
  prompt: string;
  route: RouteTarget;
  routeReason: string;
  repoUrl: string | null;
  ref: string | null;
  hasBundle: boolean;
  model: string | null;
  approvalMode: string;
  status: TaskStatus;
  priority: number;
  timeoutSeconds: number;
  maxRetries: number;
  lastSeq: number;
  branch: string | null;
  patch: string | null;
  error: unknown;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  completedAt: Date | null;
}

export interface StepRecord {
  taskId: string;
  index: number;
  id: string;
  name: string;
  prompt: string;
  dependsOn: number[];
  status: TaskStatus;
  attempt: number;
  workerId: string | null;
  lease: string | null;
  question: unknown;
  answer: unknown;
  patch: string | null;
  summary: string | null;
  error: unknown;
  heartbeatAt: Date | null;
  startedAt: Date | null;
  completedAt: Date | null;
}

export type TaskResult<T> = { ok: true; value: T } | { ok: false; error: LatheErrorInfo };

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
function jobOptions(task: { priority: number; maxRetries: number; timeoutSeconds: number }) {
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

interface TaskRow {
  id: string;
  owner: string;
  device_id: string;
  title: string;
  prompt: string;
  route: RouteTarget;
  route_reason: string;
  repo_url: string | null;
  ref: string | null;
  has_bundle: boolean;
  model: string | null;
  approval_mode: string;
  status: TaskStatus;
  priority: number;
  timeout_seconds: number;
  max_retries: number;
  last_seq: string;
  branch: string | null;
  patch: string | null;
  error: unknown;
  created_at: Date;
  updated_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
}

const taskColumns = `id, owner, device_id, title, prompt, route, route_reason, repo_url, ref, has_bundle, model,
  approval_mode, status, priority, timeout_seconds, max_retries, last_seq, branch, patch, error, created_at,
  updated_at, started_at, completed_at`;

function taskFromRow(row: TaskRow): TaskRecord {
  return {
    id: row.id,
    owner: row.owner,
    deviceId: row.device_id,
    title: row.title,
    prompt: row.prompt,
    route: row.route,
    routeReason: row.route_reason,
    repoUrl: row.repo_url,
    ref: row.ref,
    hasBundle: row.has_bundle,
    model: row.model,
    approvalMode: row.approval_mode,
    status: row.status,
    priority: row.priority,
    timeoutSeconds: row.timeout_seconds,
    maxRetries: row.max_retries,
    lastSeq: Number(row.last_seq),
    branch: row.branch,
    patch: row.patch,
    error: row.error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    startedAt: row.started_at,
    completedAt: row.completed_at,
  };
}

/** Holds the task's row until the transaction ends. */
async function lockTask(db: Queryable, taskId: string): Promise<void> {
  await db.query(`SELECT 1 FROM ${cloudSchema}.tasks WHERE id = $1 FOR UPDATE`, [taskId]);
}

export async function readTask(db: Queryable, taskId: string): Promise<TaskRecord | undefined> {
  const result = await db.query<TaskRow>(`SELECT ${taskColumns} FROM ${cloudSchema}.tasks WHERE id = $1`, [
    taskId,
  ]);
  const row = result.rows[0];
  return row === undefined ? undefined : taskFromRow(row);
}

/**
 * The task a user means by an id or a unique prefix of one (as `lathe cloud list` prints them).
 * An unknown or ambiguous id is E_TASK_NOT_FOUND.
 */
export async function findTask(db: Queryable, idOrPrefix: string): Promise<TaskResult<TaskRecord>> {
  const wanted = idOrPrefix.trim().toLowerCase();
  if (!/^[0-9a-f-]{4,36}$/.test(wanted)) {
    return {
      ok: false,
      error: errorInfo(
        "E_TASK_NOT_FOUND",
        `No task ${JSON.stringify(idOrPrefix)}: a task id is hex (at least 4 characters).`,
      ),
    };
  }
  const result = await db.query<TaskRow>(
    `SELECT ${taskColumns} FROM ${cloudSchema}.tasks WHERE id::text LIKE $1 ORDER BY created_at LIMIT 2`,
    [`${wanted}%`],
  );
  if (result.rows.length === 0)
    return { ok: false, error: errorInfo("E_TASK_NOT_FOUND", `No task ${idOrPrefix}.`) };
  if (result.rows.length > 1)
    return {
      ok: false,
      error: errorInfo(
        "E_TASK_NOT_FOUND",
        `${idOrPrefix} is the start of more than one task id: give more of it.`,
      ),
    };
  return { ok: true, value: taskFromRow(result.rows[0] as TaskRow) };
}

export interface TaskListFilter {
  status?: TaskStatus;
  limit?: number;
}

export async function listTasks(db: Queryable, filter: TaskListFilter = {}): Promise<TaskRecord[]> {
  const result = await db.query<TaskRow>(
    `SELECT ${taskColumns} FROM ${cloudSchema}.tasks WHERE ($1::text IS NULL OR status = $1)
       ORDER BY created_at DESC LIMIT $2`,
    [filter.status ?? null, filter.limit ?? 50],
  );
  return result.rows.map(taskFromRow);
}

interface StepRow {
  task_id: string;
  step_index: number;
  id: string;
  name: string;
  prompt: string;
  depends_on: number[];
  status: TaskStatus;
  attempt: number;
  worker_id: string | null;
  lease: string | null;
  question: unknown;
  answer: unknown;
  patch: string | null;
  summary: string | null;
  error: unknown;
  heartbeat_at: Date | null;
  started_at: Date | null;
  completed_at: Date | null;
}

const stepColumns = `task_id, step_index, id, name, prompt, depends_on, status, attempt, worker_id, lease, question,
  answer, patch, summary, error, heartbeat_at, started_at, completed_at`;

function stepFromRow(row: StepRow): StepRecord {
  return {
    taskId: row.task_id,
    index: row.step_index,
    id: row.id,
    name: row.name,
    prompt: row.prompt,
    dependsOn: row.depends_on,
    status: row.status,
    attempt: row.attempt,
    workerId: row.worker_id,
    lease: row.lease,
    question: row.question,
    answer: row.answer,
    patch: row.patch,
    summary: row.summary,
    error: row.error,
    heartbeatAt: row.heartbeat_at,
    startedAt: row.started_at,
    completedAt: row.completed_at,
  };
}

export async function readSteps(db: Queryable, taskId: string): Promise<StepRecord[]> {
  const result = await db.query<StepRow>(
    `SELECT ${stepColumns} FROM ${cloudSchema}.steps WHERE task_id = $1 ORDER BY step_index`,
    [taskId],
  );
  return result.rows.map(stepFromRow);
}

export async function readStep(
  db: Queryable,
  taskId: string,
  index: number,
): Promise<StepRecord | undefined> {
  const result = await db.query<StepRow>(
    `SELECT ${stepColumns} FROM ${cloudSchema}.steps WHERE task_id = $1 AND step_index = $2`,
    [taskId, index],
  );
  const row = result.rows[0];
  return row === undefined ? undefined : stepFromRow(row);
}

/** Sets the task's status from its steps' (inside the caller's transaction) and says it. */
export async function refreshTaskStatus(
  db: Queryable,
  taskId: string,
  deviceId?: string,
): Promise<TaskStatus> {
  const steps = await db.query<{ status: TaskStatus }>(
    `SELECT status FROM ${cloudSchema}.steps WHERE task_id = $1 ORDER BY step_index`,
    [taskId],
  );
  const status = taskStatusOf(steps.rows.map((row) => row.status));
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

/**
 * Cancels a task: its unfinished steps are marked cancelled, their jobs cancelled in pg-boss, and a
 * `cancel` event tells the worker running one (it listens) to stop the step's process group.
 */
export async function cancelTask(
  pool: pg.Pool,
  boss: PgBoss,
  taskId: string,
  deviceId: string,
): Promise<TaskResult<TaskRecord>> {
  const refused = await inTransaction(pool, async (client): Promise<TaskResult<TaskRecord> | undefined> => {
    // Locked first: of two cancels (or retries) at once, the second sees what the first did.
    await lockTask(client, taskId);
    const task = await readTask(client, taskId);
    if (task === undefined) return { ok: false, error: errorInfo("E_TASK_NOT_FOUND", `No task ${taskId}.`) };
    if (isFinished(task.status))
      return { ok: false, error: errorInfo("E_TASK_STATE", `Task ${taskId} is ${task.status} already.`) };
    const stopped = await client.query<{ id: string; step_index: number }>(
      `UPDATE ${cloudSchema}.steps SET status = 'cancelled', lease = NULL, updated_at = now(), completed_at = now()
        WHERE task_id = $1 AND status IN ('queued', 'running', 'needs_input') RETURNING id, step_index`,
      [taskId],
    );
    const jobIds = stopped.rows.map((row) => row.id);
    if (jobIds.length > 0) await boss.cancel(stepQueue, jobIds, { db: transactionDb(client) });
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
    return undefined;
  });
  if (refused !== undefined) return refused;
  const task = await readTask(pool, taskId);
  return task === undefined
    ? { ok: false, error: errorInfo("E_TASK_NOT_FOUND", `No task ${taskId}.`) }
    : { ok: true, value: task };
}

/**
 * Runs a failed or cancelled task again: its unfinished steps go back to the queue as new jobs
 * (pg-boss's retry and resume of the same job ids), with the retries counted afresh.
 */
export async function retryTask(
  pool: pg.Pool,
  boss: PgBoss,
  taskId: string,
  deviceId: string,
): Promise<TaskResult<TaskRecord>> {
  const refused = await inTransaction(pool, async (client): Promise<TaskResult<TaskRecord> | undefined> => {
    // Locked first: of two cancels (or retries) at once, the second sees what the first did.
    await lockTask(client, taskId);
    const task = await readTask(client, taskId);
    if (task === undefined) return { ok: false, error: errorInfo("E_TASK_NOT_FOUND", `No task ${taskId}.`) };
    if (task.status !== "failed" && task.status !== "cancelled") {
      return {
        ok: false,
        error: errorInfo(
          "E_TASK_STATE",
          `Task ${taskId} is ${task.status}: only a failed or cancelled task is retried.`,
        ),
      };
    }
    const again = await client.query<{ id: string }>(
      `UPDATE ${cloudSchema}.steps SET status = 'queued', error = NULL, question = NULL, answer = NULL, lease = NULL,
         worker_id = NULL, completed_at = NULL, updated_at = now()
        WHERE task_id = $1 AND status IN ('failed', 'cancelled') RETURNING id`,
      [taskId],
    );
    const ids = again.rows.map((row) => row.id);
    const db = transactionDb(client);
    // The old jobs are deleted and sent afresh under the same ids (a failed job's retry count and a
    // cancelled job's state are history, not the new run), and their copies leave the dead-letter
    // queue: what it holds is what still needs someone's attention.
    await boss.deleteJob(stepQueue, ids, { db });
    const dead = await boss.findJobs<StepJob>(deadStepQueue, { data: { taskId }, db });
    if (dead.length > 0)
      await boss.deleteJob(
        deadStepQueue,
        dead.map((job) => job.id),
        { db },
      );
    const steps = await readSteps(client, taskId);
    const waiting = new Set(ids);
    for (const step of steps) {
      if (!waiting.has(step.id)) continue;
      await boss.send(stepQueue, { taskId, stepIndex: step.index } satisfies StepJob, {
        id: step.id,
        ...jobOptions(task),
        db,
      });
    }
    await client.query(`UPDATE ${cloudSchema}.tasks SET error = NULL WHERE id = $1`, [taskId]);
    await appendEvent(client, {
      taskId,
      kind: "retry",
      message: `retried (${ids.length} step(s))`,
      deviceId,
    });
    await refreshTaskStatus(client, taskId, deviceId);
    return undefined;
  });
  if (refused !== undefined) return refused;
  const task = await readTask(pool, taskId);
  return task === undefined
    ? { ok: false, error: errorInfo("E_TASK_NOT_FOUND", `No task ${taskId}.`) }
    : { ok: true, value: task };
}

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
): Promise<TaskResult<StepRecord>> {
  const answered = await inTransaction(pool, async (client): Promise<TaskResult<number>> => {
    const waiting = await client.query<{ step_index: number }>(
      `UPDATE ${cloudSchema}.steps SET answer = $2, status = 'running', updated_at = now()
        WHERE id = (SELECT id FROM ${cloudSchema}.steps WHERE task_id = $1 AND status = 'needs_input'
                     ORDER BY step_index LIMIT 1 FOR UPDATE)
        RETURNING step_index`,
      [taskId, JSON.stringify({ ...answer, deviceId })],
    );
    const row = waiting.rows[0];
    // No step was waiting, so the update changed nothing and committing it is harmless.
    if (row === undefined)
      return { ok: false, error: errorInfo("E_TASK_STATE", `Task ${taskId} is not waiting for an answer.`) };
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
