import type { Message, ToolCallPart, ToolResultPart } from "@lathe/protocol";
import { prunedNote } from "./prunedNote.js";
import { activeSummary, isSummaryMessage } from "./summaryMessages.js";

/** What compaction has decided so far; the stored history itself never changes. */
export interface CompactionState {
  /** Tool outputs shown as a one-line note: call id → tokens the output had. */
  pruned: ReadonlyMap<string, number>;
}

export function emptyCompactionState(): CompactionState {
  return { pruned: new Map() };
}

/**
 * The messages to send, pure: the latest compaction summary (if any) first, standing for
 * everything through its `replacesThrough`; then the later messages, other summaries left out;
 * pruned tool outputs replaced by their notes. Messages that do not change are the same objects,
 * so token counts cached for them still apply.
 */
export function viewForRequest(history: readonly Message[], state: CompactionState): Message[] {
  const summary = activeSummary(history);
  const view: Message[] = summary ? [summary.message] : [];
  const start = summary ? summary.throughIndex + 1 : 0;
  const calls = state.pruned.size > 0 ? callsFrom(history, start) : undefined;
  for (let i = start; i < history.length; i++) {
    const message = history[i]!;
    if (isSummaryMessage(message)) continue;
    view.push(calls ? withNotes(message, state.pruned, calls) : message);
  }
  return view;
}

function callsFrom(history: readonly Message[], start: number): Map<string, ToolCallPart> {
  const calls = new Map<string, ToolCallPart>();
  for (let i = start; i < history.length; i++) {
    for (const part of history[i]!.parts) if (part.type === "tool_call") calls.set(part.callId, part);
  }
  return calls;
}

function withNotes(
  message: Message,
  pruned: ReadonlyMap<string, number>,
  calls: ReadonlyMap<string, ToolCallPart>,
): Message {
  if (!message.parts.some((part) => part.type === "tool_result" && pruned.has(part.callId))) return message;
  return {
    ...message,
    parts: message.parts.map((part) => {
      const tokens = part.type === "tool_result" ? pruned.get(part.callId) : undefined;
      if (part.type !== "tool_result" || tokens === undefined) return part;
      return notePart(part, tokens, calls.get(part.callId)?.arguments);
    }),
  };
}

/**
 * The noted version of a result, the same object from request to request (parts never change),
 * so the token ledger counts each note once instead of at every request.
 */
const notes = new WeakMap<ToolResultPart, { tokens: number; part: ToolResultPart }>();

function notePart(part: ToolResultPart, tokens: number, args: unknown): ToolResultPart {
  const known = notes.get(part);
  if (known?.tokens === tokens) return known.part;
  const noted = { ...part, output: prunedNote(part.name, args, tokens) };
  notes.set(part, { tokens, part: noted });
  return noted;
}
