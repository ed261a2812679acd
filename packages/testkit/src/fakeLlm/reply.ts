import type { ScriptedTurn } from "./script.js";

/** One scripted tool call, with its arguments already rendered as the text the wire carries. */
export interface ReplyToolCall {
  /** Position within the turn, 0-based. */
  index: number;
  name: string;
  /** The arguments text exactly as it goes over the wire (valid JSON unless the script said otherwise). */
  argumentsText: string;
  /** The arguments as a JSON object, for formats that cannot carry text; malformed text becomes `{ _raw }`. */
  argumentsObject: Record<string, unknown>;
  /** From the script: a string to use, null to omit where possible, undefined to make one up. */
  scriptedId: string | null | undefined;
}

/** What one turn answers, independent of the wire format. */
export interface ScriptedReply {
  /** 1-based position of the turn in the script; makes generated ids unique per server. */
  turnNumber: number;
  model: string;
  reasoning: string;
  text: string;
  toolCalls: ReplyToolCall[];
  promptTokens: number;
  completionTokens: number;
  refused: boolean;
}

/** Roughly four characters a token, like the providers' own rule of thumb. */
function estimateTokens(characters: number): number {
  return Math.max(1, Math.ceil(characters / 4));
}

export function buildReply(
  turn: ScriptedTurn,
  turnNumber: number,
  model: string,
  requestBytes: number,
): ScriptedReply {
  const toolCalls = (turn.tool_calls ?? []).map((call, index): ReplyToolCall => {
    const argumentsObject = call.arguments ?? {};
    if (call.raw_arguments !== undefined) {
      return {
        index,
        name: call.name,
        argumentsText: call.raw_arguments,
        argumentsObject: rawArgumentsObject(call.raw_arguments),
        scriptedId: call.id,
      };
    }
    return {
      index,
      name: call.name,
      argumentsText: JSON.stringify(argumentsObject),
      argumentsObject,
      scriptedId: call.id,
    };
  });
  const reasoning = turn.reasoning ?? "";
  const text = turn.text ?? "";
  const outputCharacters =
    reasoning.length +
    text.length +
    toolCalls.reduce((sum, call) => sum + call.name.length + call.argumentsText.length, 0);
  return {
    turnNumber,
    model,
    reasoning,
    text,
    toolCalls,
    promptTokens: turn.usage?.prompt_tokens ?? estimateTokens(requestBytes),
    completionTokens: turn.usage?.completion_tokens ?? estimateTokens(outputCharacters),
    refused: turn.refused === true,
  };
}

/** Raw text that happens to be a JSON object is kept as that object; anything else is wrapped. */
function rawArgumentsObject(raw: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // Not JSON at all: wrapped below like any other non-object.
  }
  return { _raw: raw };
}

/** The scripted id, or `<prefix>_<turn>_<index>` when the script gave none or null. */
export function toolCallId(reply: ScriptedReply, call: ReplyToolCall, prefix: string): string {
  return call.scriptedId ?? `${prefix}_${reply.turnNumber}_${call.index}`;
}

/** Like `toolCallId`, but undefined when the script asked for no id (`id: null`). */
export function optionalToolCallId(
  reply: ScriptedReply,
  call: ReplyToolCall,
  prefix: string,
): string | undefined {
  return call.scriptedId === null ? undefined : toolCallId(reply, call, prefix);
}

/**
 * Splits text into `pieces` nearly equal parts without cutting a surrogate pair; fewer when the
 * text has fewer characters than that.
 */
function splitEvenly(text: string, pieces: number): string[] {
  const characters = Array.from(text);
  const count = Math.min(pieces, characters.length);
  if (count <= 1) return text.length > 0 ? [text] : [];
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    const start = Math.floor((i * characters.length) / count);
    const end = Math.floor(((i + 1) * characters.length) / count);
    parts.push(characters.slice(start, end).join(""));
  }
  return parts;
}

/** Streamed prose: at least three chunks once the text is longer than a few characters, about 20 characters each. */
export function textChunks(text: string): string[] {
  const length = Array.from(text).length;
  return splitEvenly(text, length < 4 ? 1 : Math.max(3, Math.ceil(length / 20)));
}

/** Streamed arguments: at least two fragments, so clients must concatenate. */
export function argumentChunks(argumentsText: string): string[] {
  return splitEvenly(argumentsText, Math.max(2, Math.ceil(argumentsText.length / 20)));
}
