import type { Usage } from "@lathe/protocol";

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

export interface RunRecord {
  id: string;
  prompt: string;
  mode: string;
  model: string;
  /** `running` while in flight, or when the process died during the run. */
  status: string;
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

export type CheckpointReason = "user_message" | "tool_call" | "before_restore";

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
