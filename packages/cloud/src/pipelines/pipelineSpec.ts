import { z } from "zod";

/**
 * An agent as a pipeline step runs it: the same model with its own instructions and reach
 * (seed 003 §11.5: a specialist is a prompt and a tool set, not another model). Resolved on the
 * submitting device from built-ins and trusted `.lathe/agents/*.md`, and stored with the task.
 */
export const agentSpecSchema = z.object({
  name: z.string().min(1).max(40),
  instructions: z.string().max(20_000),
  /** Read and search only: it looks and reports, never changes the checkout. */
  readonly: z.boolean(),
  /** `provider:model` for this role; absent uses the task's model, then the worker's. */
  model: z.string().max(200).optional(),
  /** The only tools it is offered; absent: every tool its reach (read-only or not) allows. */
  tools: z
    .array(z.string().regex(/^[A-Za-z][\w-]{0,99}$/))
    .max(100)
    .optional(),
  /** Where the spec came from: `builtin` or the project file. */
  source: z.string().max(300),
});
export type AgentSpec = z.infer<typeof agentSpecSchema>;

/**
 * What a step does with its answer: `work` hands it on as an artifact (a plan, notes, a patch);
 * `review` ends with a verdict and may send the work back; `rank` orders best-of-N attempts.
 */
export const stepPurposeSchema = z.enum(["work", "review", "rank"]);
export type StepPurpose = z.infer<typeof stepPurposeSchema>;

export const pipelineStepSchema = z.object({
  /** The agent's name, also the step's name (`planner`, `coder`, …). */
  agent: agentSpecSchema,
  purpose: stepPurposeSchema,
  /** Skipped when an earlier step's answer holds the line `SKIP: <name>`. */
  optional: z.boolean(),
  /** Runs on the submitting device only, after its user consents. */
  onDevice: z.boolean(),
});
export type PipelineStep = z.infer<typeof pipelineStepSchema>;

/** A pipeline: a chain of agent steps; best-of-N fans the coding step out into attempts. */
export const pipelineSpecSchema = z.object({
  name: z.string().min(1).max(60),
  /** One line for listings: what the pipeline is for. */
  description: z.string().max(500).optional(),
  source: z.string().max(300),
  steps: z.array(pipelineStepSchema).min(1).max(12),
  /** The step whose work is sent back by a review and repeated by best-of-N attempts. */
  coder: z.string(),
  /** The project's own check, run after each coding step (sandboxed, under the task's policy). */
  verify: z.string().max(2_000).optional(),
  /** How many times a review may send the work back (once by default). */
  maxSendBacks: z.number().int().min(0).max(5),
  /** Said to every step, from the pipeline file's body. */
  instructions: z.string().max(20_000),
});
export type PipelineSpec = z.infer<typeof pipelineSpecSchema>;

/** A task's limits; reaching one ends the task with the reason (SPEC §0.5). */
export const taskBudgetSchema = z.object({
  tokens: z.number().int().positive().optional(),
  costUsd: z.number().positive().optional(),
  seconds: z.number().int().positive().optional(),
});
export type TaskBudget = z.infer<typeof taskBudgetSchema>;

/** What a step or a task has used so far. */
export const usageSchema = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  costUsd: z.number().nonnegative(),
});
export type Usage = z.infer<typeof usageSchema>;

export const noUsage: Usage = { inputTokens: 0, outputTokens: 0, costUsd: 0 };
