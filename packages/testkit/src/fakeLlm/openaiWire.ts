import { argumentChunks, optionalToolCallId, type ScriptedReply, textChunks } from "./reply.js";
import { type StreamPiece, sseData } from "./sse.js";
import { unixSeconds, type WireFormat } from "./wireFormat.js";

/**
 * OpenAI chat completions (also spoken by DeepSeek and the OpenAI-compatible servers).
 * Reasoning travels as DeepSeek's `reasoning_content`; plain OpenAI clients ignore it.
 */

type ChunkDelta = Record<string, unknown>;

function completionId(reply: ScriptedReply): string {
  return `chatcmpl-fake${reply.turnNumber}`;
}

function finishReason(reply: ScriptedReply): "tool_calls" | "stop" | "content_filter" {
  if (reply.refused) return "content_filter";
  return reply.toolCalls.length > 0 ? "tool_calls" : "stop";
}

function usage(reply: ScriptedReply) {
  return {
    prompt_tokens: reply.promptTokens,
    completion_tokens: reply.completionTokens,
    total_tokens: reply.promptTokens + reply.completionTokens,
  };
}

/** The opening of a tool call: id (unless scripted as null), name and an empty arguments string. */
function toolCallStart(reply: ScriptedReply, call: ScriptedReply["toolCalls"][number]) {
  const id = optionalToolCallId(reply, call, "call");
  return {
    index: call.index,
    id,
    type: "function",
    function: { name: call.name, arguments: "" },
  };
}

function openaiStreamPieces(reply: ScriptedReply): StreamPiece[] {
  const created = unixSeconds();
  const chunk = (delta: ChunkDelta, finish: string | null = null) =>
    sseData({
      id: completionId(reply),
      object: "chat.completion.chunk",
      created,
      model: reply.model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    });
  const pieces: StreamPiece[] = [
    // Like OpenAI: the role comes first, with an empty content string when prose follows.
    { role: "frame", payload: chunk({ role: "assistant", content: reply.text.length > 0 ? "" : null }) },
  ];
  for (const piece of textChunks(reply.reasoning)) {
    pieces.push({ role: "content", payload: chunk({ content: null, reasoning_content: piece }) });
  }
  for (const piece of textChunks(reply.text)) {
    pieces.push({ role: "content", payload: chunk({ content: piece }) });
  }
  for (const call of reply.toolCalls) {
    pieces.push({ role: "content", payload: chunk({ tool_calls: [toolCallStart(reply, call)] }) });
    for (const fragment of argumentChunks(call.argumentsText)) {
      pieces.push({
        role: "content",
        payload: chunk({ tool_calls: [{ index: call.index, function: { arguments: fragment } }] }),
      });
    }
  }
  pieces.push({ role: "finish", payload: chunk({}, finishReason(reply)) });
  pieces.push({
    role: "finish",
    payload: sseData({
      id: completionId(reply),
      object: "chat.completion.chunk",
      created,
      model: reply.model,
      choices: [],
      usage: usage(reply),
    }),
  });
  pieces.push({ role: "finish", payload: "data: [DONE]\n\n" });
  return pieces;
}

function openaiCompleteResponse(reply: ScriptedReply): unknown {
  const toolCalls = reply.toolCalls.map((call) => {
    const id = optionalToolCallId(reply, call, "call");
    return {
      id,
      type: "function",
      function: { name: call.name, arguments: call.argumentsText },
    };
  });
  return {
    id: completionId(reply),
    object: "chat.completion",
    created: unixSeconds(),
    model: reply.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: reply.text.length > 0 || toolCalls.length === 0 ? reply.text : null,
          reasoning_content: reply.reasoning.length > 0 ? reply.reasoning : undefined,
          tool_calls: toolCalls.length > 0 ? toolCalls : undefined,
          refusal: null,
        },
        logprobs: null,
        finish_reason: finishReason(reply),
      },
    ],
    usage: usage(reply),
  };
}

/** OpenAI's error `type` and `code` for a status, as its API reports them. */
function errorKind(status: number): { type: string; code: string | null } {
  if (status === 401) return { type: "invalid_request_error", code: "invalid_api_key" };
  if (status === 403) return { type: "invalid_request_error", code: "unsupported_country_region_territory" };
  if (status === 404) return { type: "invalid_request_error", code: "model_not_found" };
  if (status === 429) return { type: "requests", code: "rate_limit_exceeded" };
  if (status >= 500) return { type: "server_error", code: null };
  return { type: "invalid_request_error", code: null };
}

export const openaiWire: WireFormat = {
  label: "OpenAI chat completions",
  streamContentType: "text/event-stream; charset=utf-8",
  streamPieces: openaiStreamPieces,
  completeResponse: openaiCompleteResponse,
  errorBody(status, message) {
    return { error: { message, ...errorKind(status), param: null } };
  },
};
