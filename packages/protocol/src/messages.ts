import { z } from "zod";
import { latheErrorSchema } from "./errors.js";

export const textPartSchema = z.object({ type: z.literal("text"), text: z.string() });
export const reasoningPartSchema = z.object({ type: z.literal("reasoning"), text: z.string() });

/**
 * A tool call as the engine keeps it. `callId` is ours (UUIDv7) and is what results point at;
 * `providerCallId` is whatever the provider sent (it may repeat or be missing), kept only to
 * speak the provider's format back to it.
 */
export const toolCallPartSchema = z.object({
  type: z.literal("tool_call"),
  callId: z.string(),
  providerCallId: z.string(),
  name: z.string(),
  /** Parsed arguments, or undefined when the provider's text was not valid JSON. */
  arguments: z.unknown(),
  /** The arguments text exactly as streamed. */
  rawArguments: z.string(),
});

export const toolResultStatusSchema = z.enum(["success", "error", "rejected", "blocked", "cancelled"]);
export type ToolResultStatus = z.infer<typeof toolResultStatusSchema>;

export const toolResultPartSchema = z.object({
  type: z.literal("tool_result"),
  callId: z.string(),
  providerCallId: z.string(),
  name: z.string(),
  status: toolResultStatusSchema,
  /** What the model sees. */
  output: z.string(),
  error: latheErrorSchema.optional(),
  /** A command's exit status, as on the tool_completed event. */
  exitCode: z.number().int().optional(),
  /** Images the tool produced (a screenshot), base64, for models that can see them. Not stored. */
  images: z.array(z.object({ mediaType: z.string(), data: z.string() })).optional(),
});

export const filePartSchema = z.object({
  type: z.literal("file"),
  path: z.string(),
  mediaType: z.string(),
  /** base64 when the bytes travel with the message. */
  data: z.string().optional(),
});

export const systemReminderPartSchema = z.object({ type: z.literal("system_reminder"), text: z.string() });
export const compactionSummaryPartSchema = z.object({
  type: z.literal("compaction_summary"),
  text: z.string(),
  /** The last message the summary stands for: what is sent is the summary, then what came after it. */
  replacesThrough: z.string().optional(),
});

export const partSchema = z.discriminatedUnion("type", [
  textPartSchema,
  reasoningPartSchema,
  toolCallPartSchema,
  toolResultPartSchema,
  filePartSchema,
  systemReminderPartSchema,
  compactionSummaryPartSchema,
]);

export type TextPart = z.infer<typeof textPartSchema>;
export type ReasoningPart = z.infer<typeof reasoningPartSchema>;
export type ToolCallPart = z.infer<typeof toolCallPartSchema>;
export type ToolResultPart = z.infer<typeof toolResultPartSchema>;
export type FilePart = z.infer<typeof filePartSchema>;
export type SystemReminderPart = z.infer<typeof systemReminderPartSchema>;
export type CompactionSummaryPart = z.infer<typeof compactionSummaryPartSchema>;
export type Part = z.infer<typeof partSchema>;

export const roleSchema = z.enum(["user", "assistant", "tool"]);
export type Role = z.infer<typeof roleSchema>;

export const messageSchema = z.object({
  id: z.string(),
  sessionId: z.string(),
  role: roleSchema,
  parts: z.array(partSchema),
  createdAt: z.number(),
});
export type Message = z.infer<typeof messageSchema>;

export const usageSchema = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  cachedInputTokens: z.number().int().nonnegative(),
  reasoningTokens: z.number().int().nonnegative(),
  costUsd: z.number().nonnegative(),
});
export type Usage = z.infer<typeof usageSchema>;

export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0, costUsd: 0 };
}

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cachedInputTokens: a.cachedInputTokens + b.cachedInputTokens,
    reasoningTokens: a.reasoningTokens + b.reasoningTokens,
    costUsd: a.costUsd + b.costUsd,
  };
}

/** The words of a message, as the user typed or the model wrote them (no tool calls, no files). */
export function messageText(message: Pick<Message, "parts">): string {
  return message.parts.map((part) => (part.type === "text" ? part.text : "")).join("");
}
