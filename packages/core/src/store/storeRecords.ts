import { runEndReasonSchema, type Usage } from "@lathe/protocol";
import { z } from "zod";

/** A session as listed and shown: its place, its size and what it cost. */
export interface SessionInfo {
  id: string;
  projectRoot: string;
  title: string;
  mode: string;
  model: string;
  parentSessionId?: string;
  forkedFromMessageId?: string;
  createdAt: number;
  updatedAt: number;
  messageCount: number;
  usage: Usage;
}

/**
 * How a stored run stands: `running` while its process runs it, how it ended once it has, or
 * `interrupted` when its process was gone before it could say (killed, crashed).
 */
export const runStatusSchema = z.enum(["running", ...runEndReasonSchema.options, "interrupted"]);
export type RunStatus = z.infer<typeof runStatusSchema>;

export interface RunRecord {
  id: string;
  prompt: string;
  mode: string;
  model: string;
  status: RunStatus;
  iterations: number;
  errorCode?: string;
  errorMessage?: string;
  startedAt: number;
  endedAt?: number;
  durationMs?: number;
  usage: Usage;
}

export interface ToolCallRecord {
  callId: string;
  runId: string;
  name: string;
  arguments: unknown;
  state: string;
  errorCode?: string;
  durationMs?: number;
  startedAt: number;
}

export type CheckpointReason =
  | "user_message"
  | "tool_call"
  | "before_restore"
  | "before_reject"
  | "before_apply";

export interface CheckpointRecord {
  id: string;
  sessionId: string;
  /** The user message it was taken at, or the message whose run made the tool call. */
  messageId?: string;
  callId?: string;
  reason: CheckpointReason;
  commit: string;
  createdAt: number;
}

export interface NewSession {
  id: string;
  projectRoot: string;
  mode: string;
  model: string;
  title?: string;
}
