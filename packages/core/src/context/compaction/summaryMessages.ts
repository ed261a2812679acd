import type { CompactionSummaryPart, Message, Part } from "@lathe/protocol";

type AnchoredSummary = CompactionSummaryPart & { replacesThrough: string };

function isAnchored(part: Part): part is AnchoredSummary {
  return part.type === "compaction_summary" && part.replacesThrough !== undefined;
}

/** A message that stands for earlier ones: it holds a compaction summary that names what it replaces. */
function summaryPart(message: Message): AnchoredSummary | undefined {
  return message.parts.find(isAnchored);
}

export function isSummaryMessage(message: Message): boolean {
  return message.parts.some(isAnchored);
}

/**
 * The latest summary whose `replacesThrough` is in the history, and the index of that message.
 * Each summary was made from the view that held the summaries before it, so the latest one
 * stands for everything through its mark, older summaries included.
 */
export function activeSummary(
  history: readonly Message[],
): { message: Message; throughIndex: number } | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const message = history[i]!;
    const part = summaryPart(message);
    if (!part) continue;
    const throughIndex = history.findIndex((m) => m.id === part.replacesThrough);
    if (throughIndex >= 0) return { message, throughIndex };
  }
  return undefined;
}
