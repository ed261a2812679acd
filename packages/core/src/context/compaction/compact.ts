import { type LatheErrorInfo, type Message, newId } from "@lathe/protocol";
import type { ModelClient } from "../../llm/modelStream.js";
import type { TokenLedger } from "../tokens/tokenLedger.js";
import { type CompactionSettings, needsCompaction, resolveCompactionSettings } from "./compactionSettings.js";
import { outputsToPrune } from "./pruneOutputs.js";
import { summarize } from "./summarize.js";
import { tailStart } from "./tailSplit.js";
import { type CompactionState, viewForRequest } from "./viewForRequest.js";

export interface CompactionInput {
  /** The stored history, unchanged by compaction. */
  history: readonly Message[];
  state: CompactionState;
  ledger: TokenLedger;
  settings: CompactionSettings;
  /** The rest of the next request, counted with the messages (through the ledger's cache). */
  request: { system: string; toolsJson: string };
  /** The fast model; without it only pruning happens. */
  summarizer?: ModelClient;
  /** From `/compact focus`: what the summary must keep. */
  focus?: string;
  /** `/compact`: prune and summarize even under the threshold. */
  force?: boolean;
  signal: AbortSignal;
  sessionId: string;
}

/** The fields of the `compaction` event, plus why a summary was not made when the summarizer failed. */
export interface CompactionReport {
  tokensBefore: number;
  tokensAfter: number;
  prunedOutputs: number;
  summarized: boolean;
  summaryTokens?: number;
  summaryError?: LatheErrorInfo;
}

export interface CompactionResult {
  state: CompactionState;
  /** Role "user", one `compaction_summary` part with `replacesThrough`: the caller appends it to the stored history. */
  summaryMessage?: Message;
  report: CompactionReport;
}

/**
 * SPEC §6 compaction, on the view only: when the next request would pass the threshold (or when
 * forced), old tool outputs become notes; if that is not enough, everything but the newest tail is
 * summarized by the fast model. A summary no smaller than what it replaces is dropped. Returns
 * undefined when nothing was needed. Throws only when `signal` aborts.
 */
export async function compact(input: CompactionInput): Promise<CompactionResult | undefined> {
  const settings = resolveCompactionSettings(input.settings);
  const measure = (messages: readonly Message[]) =>
    input.ledger.estimateRequest({ ...input.request, messages });

  const before = viewForRequest(input.history, input.state);
  const tokensBefore = measure(before);
  if (!input.force && !needsCompaction(tokensBefore, settings)) return undefined;

  const newlyPruned = outputsToPrune(before, input.state.pruned, input.ledger, settings.keepToolOutputTokens);
  const state: CompactionState = { pruned: new Map([...input.state.pruned, ...newlyPruned]) };
  const pruned = viewForRequest(input.history, state);
  const report: CompactionReport = {
    tokensBefore,
    tokensAfter: measure(pruned),
    prunedOutputs: newlyPruned.size,
    summarized: false,
  };
  if (!input.summarizer || (!input.force && !needsCompaction(report.tokensAfter, settings))) {
    return { state, report };
  }

  const split = tailStart(pruned, (m) => input.ledger.messageTokens(m), settings.tailFraction);
  if (split === undefined) return { state, report };
  const head = pruned.slice(0, split);
  const summary = await summarize({
    model: input.summarizer,
    messages: head,
    maxInputTokens: settings.maxSummarizerInputTokens,
    maxOutputTokens: settings.summaryMaxOutputTokens,
    focus: input.focus,
    signal: input.signal,
  });
  if (!summary.ok) return { state, report: { ...report, summaryError: summary.error } };

  const summaryMessage: Message = {
    id: newId(),
    sessionId: input.sessionId,
    role: "user",
    parts: [
      {
        type: "compaction_summary",
        text: `${summaryPreamble}\n\n${summary.text}`,
        replacesThrough: head.at(-1)!.id,
      },
    ],
    createdAt: Date.now(),
  };
  const summaryTokens = input.ledger.messageTokens(summaryMessage);
  if (summaryTokens >= input.ledger.historyTokens(head)) return { state, report };
  return {
    state,
    summaryMessage,
    report: {
      ...report,
      tokensAfter: measure(viewForRequest([...input.history, summaryMessage], state)),
      summarized: true,
      summaryTokens,
    },
  };
}

/** Tells the model what it is reading: the summary reaches it as an ordinary user message. */
const summaryPreamble =
  "[Summary of the earlier conversation] Earlier messages of this session were replaced by this snapshot to save context; the messages after it are verbatim.";
