import type { EventDraft, Mode } from "@lathe/protocol";
import type { ToolRegistry } from "../tools/toolRegistry.js";
import { prefersApplyPatch } from "./modeTools.js";
import type { PreparedRequest, SessionContext } from "./sessionContext.js";
import type { SessionHooks } from "./sessionHooks.js";
import type { Transcript } from "./transcript.js";

export interface CompactionDemand {
  trigger: "manual" | "overflow";
  focus?: string;
}

/** The next request's system prompt and messages; a compaction it needed is stored and announced. */
export async function prepareRequest(input: {
  context: SessionContext;
  transcript: Transcript;
  hooks: SessionHooks;
  sessionId: string;
  modelId: string;
  mode: Mode;
  specs: ReturnType<ToolRegistry["specs"]>;
  signal: AbortSignal;
  force: CompactionDemand | undefined;
  emit(draft: EventDraft): void;
}): Promise<PreparedRequest> {
  const { force, hooks, signal, emit } = input;
  const prepared = await input.context.prepare({
    history: input.transcript.messages,
    mode: input.mode,
    specs: input.specs,
    applyPatch: prefersApplyPatch(input.modelId),
    sessionId: input.sessionId,
    signal,
    force,
    beforeCompaction: hooks.configured
      ? async (trigger: "auto" | "manual") => {
          await hooks.run("PreCompact", { trigger, customInstructions: force?.focus || undefined }, signal);
        }
      : undefined,
  });
  const compaction = prepared.compaction;
  if (compaction?.report.summaryError) {
    const { summaryError } = compaction.report;
    emit({
      type: "notice",
      level: "warning",
      code: summaryError.code,
      message: `The history could not be summarized; old tool outputs were cut instead: ${summaryError.message}`,
    });
  }
  // A compaction that could change nothing (the newest output alone is that large) is not news.
  if (compaction && (compaction.report.prunedOutputs > 0 || compaction.report.summarized)) {
    if (compaction.summary) input.transcript.append(compaction.summary);
    const { report } = compaction;
    emit({
      type: "compaction",
      trigger: force?.trigger ?? "auto",
      tokensBefore: report.tokensBefore,
      tokensAfter: report.tokensAfter,
      prunedOutputs: report.prunedOutputs,
      summarized: report.summarized,
      summaryTokens: report.summaryTokens,
      durationMs: compaction.durationMs,
    });
  }
  return prepared;
}
