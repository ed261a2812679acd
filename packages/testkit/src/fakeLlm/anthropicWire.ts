import { argumentChunks, type ReplyToolCall, type ScriptedReply, textChunks, toolCallId } from "./reply.js";
import { type NamedEvent, type StreamPiece, sseEvent } from "./sse.js";
import type { WireFormat } from "./wireFormat.js";

/**
 * Anthropic messages. Every tool_use block must have an id, so a tool call scripted with
 * `id: null` still gets a generated one here.
 */

function messageId(reply: ScriptedReply): string {
  return `msg_fake${reply.turnNumber}`;
}

function useId(reply: ScriptedReply, call: ReplyToolCall): string {
  return toolCallId(reply, call, "toolu");
}

/** Opaque to clients, which only echo it back; real signatures are base64 too. */
function thinkingSignature(reply: ScriptedReply): string {
  return Buffer.from(`fake-llm thinking signature, turn ${reply.turnNumber}`).toString("base64");
}

function stopReason(reply: ScriptedReply): "tool_use" | "end_turn" | "refusal" {
  if (reply.refused) return "refusal";
  return reply.toolCalls.length > 0 ? "tool_use" : "end_turn";
}

function anthropicStreamPieces(reply: ScriptedReply): StreamPiece[] {
  const frame = (value: NamedEvent): StreamPiece => ({ role: "frame", payload: sseEvent(value) });
  const content = (value: NamedEvent): StreamPiece => ({ role: "content", payload: sseEvent(value) });
  const pieces: StreamPiece[] = [
    frame({
      type: "message_start",
      message: {
        id: messageId(reply),
        type: "message",
        role: "assistant",
        model: reply.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: reply.promptTokens,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          output_tokens: 1,
        },
      },
    }),
    frame({ type: "ping" }),
  ];
  let index = 0;
  if (reply.reasoning.length > 0) {
    pieces.push(
      frame({
        type: "content_block_start",
        index,
        content_block: { type: "thinking", thinking: "", signature: "" },
      }),
    );
    for (const piece of textChunks(reply.reasoning)) {
      pieces.push(
        content({ type: "content_block_delta", index, delta: { type: "thinking_delta", thinking: piece } }),
      );
    }
    pieces.push(
      frame({
        type: "content_block_delta",
        index,
        delta: { type: "signature_delta", signature: thinkingSignature(reply) },
      }),
    );
    pieces.push(frame({ type: "content_block_stop", index }));
    index++;
  }
  if (reply.text.length > 0) {
    pieces.push(frame({ type: "content_block_start", index, content_block: { type: "text", text: "" } }));
    for (const piece of textChunks(reply.text)) {
      pieces.push(
        content({ type: "content_block_delta", index, delta: { type: "text_delta", text: piece } }),
      );
    }
    pieces.push(frame({ type: "content_block_stop", index }));
    index++;
  }
  for (const call of reply.toolCalls) {
    pieces.push(
      frame({
        type: "content_block_start",
        index,
        content_block: { type: "tool_use", id: useId(reply, call), name: call.name, input: {} },
      }),
    );
    for (const fragment of argumentChunks(call.argumentsText)) {
      pieces.push(
        content({
          type: "content_block_delta",
          index,
          delta: { type: "input_json_delta", partial_json: fragment },
        }),
      );
    }
    pieces.push(frame({ type: "content_block_stop", index }));
    index++;
  }
  pieces.push({
    role: "finish",
    payload: sseEvent({
      type: "message_delta",
      delta: { stop_reason: stopReason(reply), stop_sequence: null },
      usage: { output_tokens: reply.completionTokens },
    }),
  });
  pieces.push({ role: "finish", payload: sseEvent({ type: "message_stop" }) });
  return pieces;
}

function anthropicCompleteResponse(reply: ScriptedReply): unknown {
  const content: Record<string, unknown>[] = [];
  if (reply.reasoning.length > 0) {
    content.push({ type: "thinking", thinking: reply.reasoning, signature: thinkingSignature(reply) });
  }
  if (reply.text.length > 0) content.push({ type: "text", text: reply.text });
  for (const call of reply.toolCalls) {
    content.push({ type: "tool_use", id: useId(reply, call), name: call.name, input: call.argumentsObject });
  }
  return {
    id: messageId(reply),
    type: "message",
    role: "assistant",
    model: reply.model,
    content,
    stop_reason: stopReason(reply),
    stop_sequence: null,
    usage: {
      input_tokens: reply.promptTokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: reply.completionTokens,
    },
  };
}

/** Anthropic's error `type` for a status, as listed in its API errors page. */
function errorType(status: number): string {
  switch (status) {
    case 401:
      return "authentication_error";
    case 402:
      return "billing_error";
    case 403:
      return "permission_error";
    case 404:
      return "not_found_error";
    case 413:
      return "request_too_large";
    case 429:
      return "rate_limit_error";
    case 504:
      return "timeout_error";
    case 529:
      return "overloaded_error";
    default:
      return status >= 500 ? "api_error" : "invalid_request_error";
  }
}

export const anthropicWire: WireFormat = {
  label: "Anthropic messages",
  streamContentType: "text/event-stream; charset=utf-8",
  streamPieces: anthropicStreamPieces,
  completeResponse: anthropicCompleteResponse,
  errorBody(status, message) {
    return { type: "error", error: { type: errorType(status), message } };
  },
};
