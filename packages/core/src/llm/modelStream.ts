import type { LatheErrorInfo, Message, Usage } from "@lathe/protocol";

/** A tool as offered to the model. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments (draft 7 subset, as providers accept). */
  inputSchema: Record<string, unknown>;
}

export interface ModelRequest {
  system: string;
  messages: Message[];
  tools: ToolSpec[];
  maxOutputTokens?: number;
  signal: AbortSignal;
}

/**
 * What the gateway yields while a model answers. Tool calls are reported complete in
 * `tool_call` (one per call, in the order the provider finished them); the start/delta events
 * exist only so faces can show arguments as they stream.
 */
export type ModelStreamEvent =
  | { type: "text_delta"; delta: string }
  | { type: "reasoning_delta"; delta: string }
  | { type: "tool_call_start"; providerCallId: string; name: string }
  | { type: "tool_call_delta"; providerCallId: string; delta: string }
  | { type: "tool_call"; providerCallId: string; name: string; rawArguments: string }
  /**
   * The attempt failed and another follows after `delayMs`: discard whatever this response has
   * produced so far (possibly nothing). `attempt` numbers the attempt about to start (2 = first
   * retry), counted across fallback models; `fallbackModelId` is set when a fallback takes over.
   */
  | { type: "retry"; attempt: number; delayMs: number; error: LatheErrorInfo; fallbackModelId?: string }
  | { type: "finish"; usage: Usage; finishReason: string };

/** Streams one model response; throws `LatheError` with an E_LLM_* code when retries are exhausted. */
export interface ModelClient {
  readonly modelId: string;
  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
}
