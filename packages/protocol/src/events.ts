import { z } from "zod";
import { errorCodeSchema, latheErrorSchema } from "./errors.js";
import { usageSchema } from "./messages.js";

/** The agent loop's states (SPEC §3). Every run ends back at `idle`. */
export const runStateSchema = z.enum([
  "idle",
  "streaming",
  "tool_pending",
  "awaiting_approval",
  "tool_executing",
  "tool_results",
  "completed",
  "failed",
  "cancelled",
  "iteration_limit",
]);
export type RunState = z.infer<typeof runStateSchema>;

export const runEndReasonSchema = z.enum([
  "completed",
  "failed",
  "cancelled",
  "iteration_limit",
  "loop_detected",
]);
export type RunEndReason = z.infer<typeof runEndReasonSchema>;

export const modeSchema = z.enum(["agent", "ask", "plan", "debug"]);
export type Mode = z.infer<typeof modeSchema>;

export const riskSchema = z.enum(["safe", "low", "medium", "high", "critical"]);
export type Risk = z.infer<typeof riskSchema>;

/** How much the user is asked before actions (SPEC §5); the policy engine reads it. */
export const approvalModeSchema = z.enum(["manual", "ask_first", "auto_edit", "auto", "yolo"]);
export type ApprovalMode = z.infer<typeof approvalModeSchema>;

/** One item of the session's todo list (`todo_write`). */
export const todoItemSchema = z.object({
  id: z.string(),
  content: z.string(),
  status: z.enum(["pending", "in_progress", "completed", "cancelled"]),
});
export type TodoItem = z.infer<typeof todoItemSchema>;

/** Whose a long-lived memory is (`update_memory`): this project's, or the user's across projects. */
export const memoryScopeSchema = z.enum(["project", "user"]);
export type MemoryScope = z.infer<typeof memoryScopeSchema>;

/** One long-lived memory as the engine keeps it (SPEC §4 `update_memory`). */
export const memoryEntrySchema = z.object({ id: z.string(), scope: memoryScopeSchema, content: z.string() });
export type MemoryEntry = z.infer<typeof memoryEntrySchema>;

/** One question the model asks the user (`ask_user`), with choices when it offers some. */
export const userQuestionSchema = z.object({ question: z.string(), options: z.array(z.string()).optional() });

/** A tool call's place in the scheduler (SPEC §4): every change is a `tool_call_state` event. */
export const toolCallStateSchema = z.enum([
  "validating",
  "awaiting_approval",
  "scheduled",
  "executing",
  "success",
  "error",
  "rejected",
  "cancelled",
]);
export type ToolCallState = z.infer<typeof toolCallStateSchema>;

/**
 * Every event of a session's stream, as clients may check it. Built on first use: the engine
 * emits events it built itself and never parses them, so a run need not build the ~260 schemas
 * (and the start-up image need not hold them).
 */
export const eventSchema = z.lazy(buildEventSchema);

function buildEventSchema() {
  const base = {
    sessionId: z.string(),
    runId: z.string(),
    /** Position in the session's event stream, strictly increasing; clients resume from it. */
    seq: z.number().int().nonnegative(),
    at: z.number(),
  };

  const call = { ...base, callId: z.string(), name: z.string() };

  return z.discriminatedUnion("type", [
    z.object({
      type: z.literal("run_start"),
      ...base,
      mode: modeSchema,
      model: z.string(),
      prompt: z.string(),
      /** The model's context window and the request size, in tokens, at which history is compacted. */
      context: z
        .object({ window: z.number().int().positive(), compactAt: z.number().int().positive() })
        .optional(),
    }),
    z.object({ type: z.literal("state_change"), ...base, from: runStateSchema, to: runStateSchema }),
    z.object({
      type: z.literal("turn_start"),
      ...base,
      iteration: z.number().int(),
      maxIterations: z.number().int(),
    }),
    z.object({ type: z.literal("text_delta"), ...base, messageId: z.string(), delta: z.string() }),
    z.object({ type: z.literal("reasoning_delta"), ...base, messageId: z.string(), delta: z.string() }),
    z.object({ type: z.literal("tool_call_start"), ...call }),
    z.object({ type: z.literal("tool_call_delta"), ...call, delta: z.string() }),
    z.object({ type: z.literal("tool_call_ready"), ...call, arguments: z.unknown() }),
    z.object({ type: z.literal("tool_call_state"), ...call, state: toolCallStateSchema }),
    z.object({
      type: z.literal("approval_required"),
      ...call,
      approvalId: z.string(),
      arguments: z.unknown(),
      risk: riskSchema,
      reason: z.string(),
      /** The exact permission rules an "always" answer saves, shown before saving; absent: none. */
      alwaysRules: z.array(z.string()).optional(),
    }),
    z.object({ type: z.literal("tool_executing"), ...call }),
    z.object({
      type: z.literal("tool_output"),
      ...call,
      stream: z.enum(["stdout", "stderr"]),
      chunk: z.string(),
    }),
    z.object({
      type: z.literal("tool_completed"),
      ...call,
      output: z.string(),
      durationMs: z.number(),
      /** A command's exit status: the call succeeded, but a non-zero status means the command failed. */
      exitCode: z.number().int().optional(),
    }),
    z.object({ type: z.literal("tool_failed"), ...call, error: latheErrorSchema, durationMs: z.number() }),
    z.object({ type: z.literal("tool_rejected"), ...call, message: z.string() }),
    z.object({ type: z.literal("tool_blocked"), ...call, error: latheErrorSchema }),
    z.object({
      type: z.literal("retry"),
      ...base,
      attempt: z.number().int(),
      delayMs: z.number(),
      error: latheErrorSchema,
    }),
    z.object({ type: z.literal("usage"), ...base, usage: usageSchema, total: usageSchema }),
    z.object({
      type: z.literal("turn_end"),
      ...base,
      iteration: z.number().int(),
      toolCalls: z.number().int(),
    }),
    z.object({ type: z.literal("message_queued"), ...base, text: z.string() }),
    /** A queued message joined the run in progress, after its tool round: the user's next message. */
    z.object({ type: z.literal("message_delivered"), ...base, text: z.string(), messageId: z.string() }),
    /** A queued message the run never took: the run was cancelled (a face may offer it again). */
    z.object({ type: z.literal("message_dropped"), ...base, text: z.string() }),
    /** A snapshot of the project taken before a user message or a mutating tool call (SPEC §7). */
    z.object({
      type: z.literal("checkpoint"),
      ...base,
      checkpointId: z.string(),
      reason: z.enum(["user_message", "tool_call"]),
      messageId: z.string().optional(),
      callId: z.string().optional(),
      commit: z.string(),
    }),
    /** The history sent to the model was shortened (SPEC §6); the stored history is untouched. */
    z.object({
      type: z.literal("compaction"),
      ...base,
      trigger: z.enum(["auto", "manual", "overflow"]),
      tokensBefore: z.number().int().nonnegative(),
      tokensAfter: z.number().int().nonnegative(),
      /** Old tool outputs replaced by a one-line note. */
      prunedOutputs: z.number().int().nonnegative(),
      /** Whether older messages were replaced by a summary (false when pruning was enough or the summary was discarded). */
      summarized: z.boolean(),
      summaryTokens: z.number().int().nonnegative().optional(),
      durationMs: z.number().nonnegative(),
    }),
    /** The model seems stuck (SPEC §6): it is warned, and after the stop threshold the run ends. */
    z.object({
      type: z.literal("loop_warning"),
      ...base,
      kind: z.enum(["identical_calls", "repeated_content", "read_streak"]),
      count: z.number().int().nonnegative(),
      message: z.string(),
    }),
    /** The session's todo list changed (SPEC §4 todo_write). */
    z.object({
      type: z.literal("todos"),
      ...base,
      todos: z.array(todoItemSchema),
      /** Done out of live items (cancelled ones count apart). */
      completed: z.number().int().nonnegative(),
      live: z.number().int().nonnegative(),
      cancelled: z.number().int().nonnegative(),
    }),
    /** A plan-mode run's answer, saved by the engine as an editable markdown plan (SPEC §3). */
    z.object({
      type: z.literal("plan_saved"),
      ...base,
      /** Relative to the project root, with `/` separators: `.lathe/plans/<date>-<slug>.md`. */
      path: z.string(),
      title: z.string(),
      /** The message that carries the plan out in agent mode, as a face's "Run this plan" sends it. */
      prompt: z.string(),
    }),
    /** A sub-agent started by a `task` call (SPEC §4). */
    z.object({
      type: z.literal("subagent_start"),
      ...base,
      subagentId: z.string(),
      callId: z.string(),
      agent: z.string(),
      description: z.string(),
    }),
    z.object({
      type: z.literal("subagent_progress"),
      ...base,
      subagentId: z.string(),
      /** A new model round, or a tool call the sub-agent made. */
      kind: z.enum(["iteration", "tool"]),
      iteration: z.number().int().nonnegative(),
      tool: z.string().optional(),
      toolState: toolCallStateSchema.optional(),
    }),
    /** One step of a sub-agent, for its card: a tool call once it has ended, or one of its answers. */
    z.object({
      type: z.literal("subagent_step"),
      ...base,
      subagentId: z.string(),
      step: z.discriminatedUnion("kind", [
        z.object({
          kind: z.literal("tool"),
          callId: z.string(),
          name: z.string(),
          arguments: z.unknown(),
          state: z.enum(["completed", "failed", "rejected"]),
          /** Its output or error, shortened. */
          output: z.string(),
        }),
        z.object({ kind: z.literal("text"), text: z.string() }),
      ]),
    }),
    z.object({
      type: z.literal("subagent_finish"),
      ...base,
      subagentId: z.string(),
      status: runEndReasonSchema.or(z.literal("timeout")),
      iterations: z.number().int().nonnegative(),
      usage: usageSchema,
      durationMs: z.number().nonnegative(),
    }),
    /** The model asked the user questions (`ask_user`); the run waits for the answers. */
    z.object({
      type: z.literal("user_question"),
      ...base,
      questionId: z.string(),
      callId: z.string(),
      questions: z.array(userQuestionSchema),
    }),
    /** Something the user should know that does not stop the run (a checkpoint that failed, storage trouble). */
    z.object({
      type: z.literal("notice"),
      ...base,
      level: z.enum(["info", "warning", "error"]),
      code: errorCodeSchema.optional(),
      message: z.string(),
    }),
    z.object({
      type: z.literal("run_complete"),
      ...base,
      reason: runEndReasonSchema,
      iterations: z.number().int(),
      final: z.string(),
      usage: usageSchema,
      durationMs: z.number(),
      error: latheErrorSchema.optional(),
    }),
  ]);
}

export type LatheEvent = z.infer<typeof eventSchema>;
export type LatheEventType = LatheEvent["type"];
export type EventOf<T extends LatheEventType> = Extract<LatheEvent, { type: T }>;

/** An event before the session stamps it with its sequence number and time. */
export type EventDraft = LatheEvent extends infer E
  ? E extends LatheEvent
    ? Omit<E, "seq" | "at" | "sessionId" | "runId">
    : never
  : never;
