import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { cloudSchema } from "../database/migrations.js";
import type { RouteTarget } from "../router/taskRouter.js";
import type { Queryable } from "./taskEvents.js";
import type { TaskStatus } from "./taskStatus.js";

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
export async function lockTask(db: Queryable, taskId: string): Promise<void> {
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
