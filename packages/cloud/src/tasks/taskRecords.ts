import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { cloudSchema } from "../database/migrations.js";
import {
  type AgentSpec,
  agentSpecSchema,
  noUsage,
  type PipelineSpec,
  pipelineSpecSchema,
  type StepPurpose,
  type TaskBudget,
  taskBudgetSchema,
  type Usage,
  usageSchema,
} from "../pipelines/pipelineSpec.js";
import type { RouteTarget } from "../router/taskRouter.js";
import type { Queryable } from "./taskEvents.js";
import type { StepStatus, TaskStatus } from "./taskStatus.js";

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
  /** The pipeline the task runs, when it runs one (else its steps are plain engine runs). */
  pipeline: PipelineSpec | null;
  /** Best-of-N: how many coding attempts run side by side. */
  attempts: number;
  budget: TaskBudget | null;
  usage: Usage;
  /** Send-backs from a review so far. */
  sendBacks: number;
  /** The attempts that passed their verify, best first, as the ranking step ordered them. */
  ranking: Ranking | null;
}

export interface Ranking {
  order: number[];
  /** Attempts whose verify failed (or that failed outright), with why. */
  rejected: { attempt: number; reason: string }[];
  reason: string;
}

export interface VerifyResult {
  command: string;
  passed: boolean;
  exitCode: number | null;
  /** The end of what the command printed. */
  output: string;
}

export interface Verdict {
  decision: "approve" | "revise" | "rank";
  /** What the reviewer asked for or said, as handed to the next step. */
  notes: string;
  /** For a ranking: the attempts in order, best first. */
  order?: number[];
  /** True when the answer held no verdict line and approval was assumed. */
  assumed?: boolean;
}

export interface StepRecord {
  taskId: string;
  index: number;
  id: string;
  name: string;
  prompt: string;
  dependsOn: number[];
  status: StepStatus;
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
  /** The agent the step runs as; null for a plain step (the engine as it is). */
  agent: AgentSpec | null;
  purpose: StepPurpose;
  optional: boolean;
  /** The device the step must run on (a hybrid step), or null for any worker. */
  runsOn: string | null;
  /** Best-of-N: which attempt (1-based) this coding step is. */
  attemptNo: number | null;
  /** The review step that sent the work back to this one. */
  sentBackBy: number | null;
  verify: VerifyResult | null;
  verdict: Verdict | null;
  /** Every change from the task's start up to and including this step. */
  taskPatch: string | null;
  usage: Usage | null;
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
  pipeline: unknown;
  attempts: number;
  budget: unknown;
  usage: unknown;
  send_backs: number;
  ranking: Ranking | null;
}

const taskColumns = `id, owner, device_id, title, prompt, route, route_reason, repo_url, ref, has_bundle, model,
  approval_mode, status, priority, timeout_seconds, max_retries, last_seq, branch, patch, error, created_at,
  updated_at, started_at, completed_at, pipeline, attempts, budget, usage, send_backs, ranking`;

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
    pipeline: parsedOrNull(pipelineSpecSchema, row.pipeline),
    attempts: row.attempts,
    budget: parsedOrNull(taskBudgetSchema, row.budget),
    usage: parsedOrNull(usageSchema, row.usage) ?? noUsage,
    sendBacks: row.send_backs,
    ranking: row.ranking,
  };
}

/**
 * A stored spec read back through its schema: a row a database writer bent out of shape is read
 * as absent (a plain step, no budget), never trusted as it stands.
 */
function parsedOrNull<T>(
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } },
  value: unknown,
): T | null {
  if (value === null || value === undefined) return null;
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : null;
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
  status: StepStatus;
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
  agent: unknown;
  purpose: StepPurpose;
  optional: boolean;
  runs_on: string | null;
  attempt_no: number | null;
  sent_back_by: number | null;
  verify: VerifyResult | null;
  verdict: Verdict | null;
  task_patch: string | null;
  usage: unknown;
}

const stepColumns = `task_id, step_index, id, name, prompt, depends_on, status, attempt, worker_id, lease, question,
  answer, patch, summary, error, heartbeat_at, started_at, completed_at, agent, purpose, optional, runs_on,
  attempt_no, sent_back_by, verify, verdict, task_patch, usage`;

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
    agent: parsedOrNull(agentSpecSchema, row.agent),
    purpose: row.purpose,
    optional: row.optional,
    runsOn: row.runs_on,
    attemptNo: row.attempt_no,
    sentBackBy: row.sent_back_by,
    verify: row.verify,
    verdict: row.verdict,
    taskPatch: row.task_patch,
    usage: parsedOrNull(usageSchema, row.usage),
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
