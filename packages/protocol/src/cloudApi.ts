import { z } from "zod";

/**
 * The shapes of `lathe serve`'s cloud routes (`/api/cloud/…`, SPEC §9): the task queue as the web
 * UI reads it. The CLI builds them from the task database's records; times are epoch milliseconds.
 */

export const cloudTaskStatusSchema = z.enum([
  "queued",
  "running",
  "needs_input",
  "completed",
  "failed",
  "cancelled",
]);
export type CloudTaskStatus = z.infer<typeof cloudTaskStatusSchema>;

/** A step also `waits` for the steps before it, or is `skipped` when the pipeline left it out. */
export const cloudStepStatusSchema = z.enum([...cloudTaskStatusSchema.options, "waiting", "skipped"]);
export type CloudStepStatus = z.infer<typeof cloudStepStatusSchema>;

/** Approval modes a task may run in: a worker never runs one in `yolo`. */
export const cloudApprovalModeSchema = z.enum(["manual", "ask_first", "auto_edit", "auto"]);
export type CloudApprovalMode = z.infer<typeof cloudApprovalModeSchema>;

export const cloudUsageSchema = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  costUsd: z.number().nonnegative(),
});
export type CloudUsage = z.infer<typeof cloudUsageSchema>;

/** A task's limits: reaching one ends it with the reason. */
export const cloudBudgetSchema = z.object({
  tokens: z.number().int().positive().optional(),
  costUsd: z.number().positive().optional(),
  seconds: z.number().int().positive().optional(),
});
export type CloudBudget = z.infer<typeof cloudBudgetSchema>;

export const cloudErrorSchema = z.object({ code: z.string(), message: z.string() });
export type CloudError = z.infer<typeof cloudErrorSchema>;

/** `GET /api/cloud?projectRoot=`: the task database this server uses and who this device is. */
export const cloudInfoSchema = z.object({
  /** This machine's device id: a step that runs on it asks here for consent. */
  deviceId: z.string(),
  /** The database's URL with any password hidden. */
  database: z.string(),
  /** The pipelines a task from this project may name (built-in and the project's own). */
  pipelines: z.array(z.string()),
});
export type CloudInfo = z.infer<typeof cloudInfoSchema>;

/** `GET /api/cloud/tasks`: a row of the task list, newest first. */
export const cloudTaskSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  status: cloudTaskStatusSchema,
  route: z.enum(["local", "cloud", "hybrid"]),
  routeReason: z.string(),
  /** The pipeline's name; null for a plain task. */
  pipeline: z.string().nullable(),
  /** Best-of-N: how many coding attempts run side by side. */
  attempts: z.number().int().positive(),
  owner: z.string(),
  /** The device that submitted it. */
  deviceId: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type CloudTaskSummary = z.infer<typeof cloudTaskSummarySchema>;

/** How the reviewer ordered the attempts that passed their verify, and which it left out. */
export const cloudRankingSchema = z.object({
  /** Attempt numbers, best first. */
  order: z.array(z.number().int().positive()),
  rejected: z.array(z.object({ attempt: z.number().int().positive(), reason: z.string() })),
  reason: z.string(),
});
export type CloudRanking = z.infer<typeof cloudRankingSchema>;

export const cloudTaskSchema = cloudTaskSummarySchema.extend({
  prompt: z.string(),
  model: z.string().nullable(),
  approvalMode: z.string(),
  /** Where the workers get the code: a repository URL, or "bundle" for this machine's repository. */
  source: z.string(),
  ref: z.string().nullable(),
  branch: z.string().nullable(),
  /** Everything the task changed, when it is done. */
  patch: z.string().nullable(),
  error: cloudErrorSchema.nullable(),
  startedAt: z.number().nullable(),
  completedAt: z.number().nullable(),
  lastSeq: z.number().int().nonnegative(),
  /** The project's own check each coding step must pass, when the pipeline has one. */
  verify: z.string().nullable(),
  budget: cloudBudgetSchema.nullable(),
  usage: cloudUsageSchema,
  sendBacks: z.number().int().nonnegative(),
  /** How many times a review may send the work back; null for a plain task. */
  maxSendBacks: z.number().int().nonnegative().nullable(),
  ranking: cloudRankingSchema.nullable(),
});
export type CloudTask = z.infer<typeof cloudTaskSchema>;

/** What a paused step waits for: an approval the task's policy asks about, or a device's consent. */
export const cloudQuestionSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("approval"),
    id: z.string(),
    tool: z.string(),
    input: z.unknown(),
    reason: z.string(),
  }),
  z.object({
    kind: z.literal("run_here"),
    id: z.string(),
    /** The device the step runs on once its user consents. */
    device: z.string(),
    step: z.string(),
    agent: z.string(),
    /** What the step will do there. */
    prompt: z.string(),
  }),
]);
export type CloudQuestion = z.infer<typeof cloudQuestionSchema>;

export const cloudVerifySchema = z.object({
  command: z.string(),
  passed: z.boolean(),
  exitCode: z.number().int().nullable(),
  /** The end of what the command printed. */
  output: z.string(),
});
export type CloudVerify = z.infer<typeof cloudVerifySchema>;

export const cloudVerdictSchema = z.object({
  decision: z.enum(["approve", "revise", "rank"]),
  notes: z.string(),
  order: z.array(z.number().int().positive()).optional(),
});
export type CloudVerdict = z.infer<typeof cloudVerdictSchema>;

export const cloudStepSchema = z.object({
  index: z.number().int().nonnegative(),
  name: z.string(),
  status: cloudStepStatusSchema,
  dependsOn: z.array(z.number().int().nonnegative()),
  /** The agent the step runs as; null for a plain step. */
  agent: z.object({ name: z.string(), readonly: z.boolean() }).nullable(),
  purpose: z.enum(["work", "review", "rank"]),
  optional: z.boolean(),
  /** The device a hybrid step must run on; null for any worker. */
  runsOn: z.string().nullable(),
  /** Best-of-N: which attempt (1-based) this coding step is. */
  attemptNo: z.number().int().positive().nullable(),
  /** The review step that sent the work back to this one. */
  sentBackBy: z.number().int().nonnegative().nullable(),
  /** The worker (device) that holds or held it. */
  workerId: z.string().nullable(),
  /** Runs of the step so far beyond the first (retries after a failure). */
  retries: z.number().int().nonnegative(),
  question: cloudQuestionSchema.nullable(),
  verify: cloudVerifySchema.nullable(),
  verdict: cloudVerdictSchema.nullable(),
  summary: z.string().nullable(),
  error: cloudErrorSchema.nullable(),
  usage: cloudUsageSchema.nullable(),
  /** Every change from the task's start up to and including this step. */
  taskPatch: z.string().nullable(),
  startedAt: z.number().nullable(),
  completedAt: z.number().nullable(),
});
export type CloudStep = z.infer<typeof cloudStepSchema>;

/** `GET /api/cloud/tasks/:id`. */
export const cloudTaskDetailSchema = z.object({ task: cloudTaskSchema, steps: z.array(cloudStepSchema) });
export type CloudTaskDetail = z.infer<typeof cloudTaskDetailSchema>;

/** `POST /api/cloud/tasks`: the task as stored, and what the submitter should know about it. */
export const cloudSubmitReplySchema = z.object({ task: cloudTaskSchema, notices: z.array(z.string()) });
export type CloudSubmitReply = z.infer<typeof cloudSubmitReplySchema>;

/**
 * One event of a task's stream (`GET /api/cloud/tasks/:id/events`, Server-Sent Events whose `id`
 * is `seq`): a status change, a log line, a question, an answer, a result.
 */
export const cloudEventSchema = z.object({
  /** 1, 2, 3… within the task: a reader resumes after the last one it saw. */
  seq: z.number().int().positive(),
  stepIndex: z.number().int().nonnegative().nullable(),
  kind: z.string(),
  level: z.enum(["debug", "info", "warn", "error"]),
  message: z.string(),
  deviceId: z.string().nullable(),
  createdAt: z.number(),
});
export type CloudEvent = z.infer<typeof cloudEventSchema>;

/** `POST /api/cloud/tasks/:id/apply`. */
export const cloudApplyReplySchema = z.object({
  /** False when the task changed nothing. */
  applied: z.boolean(),
  taskId: z.string(),
  /** The attempt whose patch was applied; null for the task's own result. */
  attempt: z.number().int().positive().nullable(),
  /** `1 file, +1 −0`. */
  summary: z.string(),
  /** The checkpoint taken before, which undoes the apply; null when nothing was applied. */
  checkpointId: z.string().nullable(),
});
export type CloudApplyReply = z.infer<typeof cloudApplyReplySchema>;
