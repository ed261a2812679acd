import { STATUS_CODES } from "node:http";
import type { ScriptedReply } from "./reply.js";
import type { StreamPiece } from "./sse.js";

/** How one provider spells an answer and an error on the wire. */
export interface WireFormat {
  /** Used in messages about the request, e.g. "OpenAI chat completions". */
  label: string;
  streamContentType: string;
  /** The pieces of a streamed answer, finishing pieces last. */
  streamPieces(reply: ScriptedReply): StreamPiece[];
  /** The whole answer as one JSON body, for requests that do not stream. */
  completeResponse(reply: ScriptedReply): unknown;
  /** An error body in the provider's own shape. */
  errorBody(status: number, message: string): unknown;
}

export function defaultErrorMessage(status: number): string {
  return `fake-llm: scripted HTTP ${status} ${STATUS_CODES[status] ?? "error"}`;
}

/** Seconds since the epoch, as the `created` fields carry it. */
export function unixSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
