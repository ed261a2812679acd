import { type ScriptedReply, textChunks } from "./reply.js";
import { type StreamPiece, sseData } from "./sse.js";
import type { WireFormat } from "./wireFormat.js";

/**
 * Gemini generateContent. Function calls have no ids and arrive whole (args as an object, never
 * as text), so tool-call ids in the script are ignored and malformed arguments travel as
 * `{"_raw": "<text>"}`. Reasoning is sent as `thought: true` text parts.
 */

type Part = Record<string, unknown>;

function responseId(reply: ScriptedReply): string {
  return `fake-llm-response-${reply.turnNumber}`;
}

/** Opaque to clients, which only echo it back; Gemini puts one on the first call after thinking. */
function thoughtSignature(reply: ScriptedReply): string {
  return Buffer.from(`fake-llm thought signature, turn ${reply.turnNumber}`).toString("base64");
}

function functionCallParts(reply: ScriptedReply): Part[] {
  return reply.toolCalls.map((call, position) => ({
    functionCall: { name: call.name, args: call.argumentsObject },
    thoughtSignature: position === 0 && reply.reasoning.length > 0 ? thoughtSignature(reply) : undefined,
  }));
}

function usageMetadata(reply: ScriptedReply) {
  return {
    promptTokenCount: reply.promptTokens,
    candidatesTokenCount: reply.completionTokens,
    totalTokenCount: reply.promptTokens + reply.completionTokens,
  };
}

function response(reply: ScriptedReply, parts: Part[], finished: boolean): Record<string, unknown> {
  return {
    candidates: [
      {
        content: { parts, role: "model" },
        finishReason: finished ? (reply.refused ? "SAFETY" : "STOP") : undefined,
        index: 0,
      },
    ],
    usageMetadata: finished ? usageMetadata(reply) : undefined,
    modelVersion: reply.model,
    responseId: responseId(reply),
  };
}

/** The streamed responses, the last one carrying finishReason and usage. */
function streamResponses(reply: ScriptedReply): { role: StreamPiece["role"]; value: unknown }[] {
  const responses: { role: StreamPiece["role"]; value: unknown }[] = [];
  for (const piece of textChunks(reply.reasoning)) {
    responses.push({ role: "content", value: response(reply, [{ text: piece, thought: true }], false) });
  }
  for (const piece of textChunks(reply.text)) {
    responses.push({ role: "content", value: response(reply, [{ text: piece }], false) });
  }
  if (reply.toolCalls.length > 0) {
    responses.push({ role: "content", value: response(reply, functionCallParts(reply), false) });
  }
  responses.push({ role: "finish", value: response(reply, [{ text: "" }], true) });
  return responses;
}

function completeResponse(reply: ScriptedReply): unknown {
  const parts: Part[] = [];
  if (reply.reasoning.length > 0) parts.push({ text: reply.reasoning, thought: true });
  if (reply.text.length > 0) parts.push({ text: reply.text });
  parts.push(...functionCallParts(reply));
  return response(reply, parts, true);
}

/** Google's canonical status name for an HTTP status. */
function statusName(status: number): string {
  switch (status) {
    case 400:
      return "INVALID_ARGUMENT";
    case 401:
      return "UNAUTHENTICATED";
    case 403:
      return "PERMISSION_DENIED";
    case 404:
      return "NOT_FOUND";
    case 409:
      return "ABORTED";
    case 429:
      return "RESOURCE_EXHAUSTED";
    case 499:
      return "CANCELLED";
    case 501:
      return "UNIMPLEMENTED";
    case 503:
      return "UNAVAILABLE";
    case 504:
      return "DEADLINE_EXCEEDED";
    default:
      return status >= 500 ? "INTERNAL" : "FAILED_PRECONDITION";
  }
}

function errorBody(status: number, message: string): unknown {
  return { error: { code: status, message, status: statusName(status) } };
}

/** `alt=sse`: one `data:` event per response, as the AI SDK requests it. */
export const geminiSseWire: WireFormat = {
  label: "Gemini streamGenerateContent (SSE)",
  streamContentType: "text/event-stream",
  streamPieces: (reply) =>
    streamResponses(reply).map(({ role, value }) => ({ role, payload: sseData(value) })),
  completeResponse,
  errorBody,
};

/** Without `alt=sse`, Gemini streams one JSON array, element by element. */
export const geminiJsonArrayWire: WireFormat = {
  label: "Gemini streamGenerateContent (JSON array)",
  streamContentType: "application/json; charset=UTF-8",
  streamPieces: (reply) => {
    const pieces: StreamPiece[] = streamResponses(reply).map(({ role, value }, position) => ({
      role,
      payload: `${position === 0 ? "[" : ",\r\n"}${JSON.stringify(value)}`,
    }));
    pieces.push({ role: "finish", payload: "]" });
    return pieces;
  },
  completeResponse,
  errorBody,
};
