import { readFileSync } from "node:fs";
import { errorInfo, LatheError, type LatheErrorInfo, type Message, newId } from "@lathe/protocol";
import { assetUrl } from "../../assetPath.js";
import type { ModelClient } from "../../llm/modelStream.js";
import { countTokens } from "../tokens/countTokens.js";
import { renderTranscript } from "./transcript.js";

/** Request framing a provider adds around system and user text (role markers, priming). */
const framingTokens = 16;
/** Below this, a transcript could not say enough to be worth a summary. */
const minTranscriptTokens = 256;

let prompt: string | undefined;

/** The summarizer's instructions, read once from the file beside this one. */
function summarizerPrompt(): string {
  prompt ??= readFileSync(assetUrl("context/compaction/summarizerPrompt.md"), "utf8").trim();
  return prompt;
}

export interface SummarizeInput {
  model: ModelClient;
  messages: readonly Message[];
  /** Bound on the whole request: instructions, focus and transcript. */
  maxInputTokens: number;
  maxOutputTokens: number;
  /** What the user asked the summary to keep (`/compact focus`). */
  focus?: string;
  signal: AbortSignal;
}

export type SummarizeResult = { ok: true; text: string } | { ok: false; error: LatheErrorInfo };

/** Asks the (fast) model for a state snapshot of `messages`. Cancellation is thrown; other failures are returned. */
export async function summarize(input: SummarizeInput): Promise<SummarizeResult> {
  const system = summarizerPrompt();
  const focus = input.focus?.trim();
  const intro = focus
    ? `The user asked the summary to focus on: ${focus}\nKeep everything about that in full detail.\n\nTranscript:\n\n`
    : "Transcript:\n\n";
  const budget = input.maxInputTokens - framingTokens - countTokens(system) - countTokens(intro);
  if (budget < minTranscriptTokens) {
    return fail(
      `The summarizer's input bound (${input.maxInputTokens} tokens) leaves no room for the conversation.`,
    );
  }
  const request: Message = {
    id: newId(),
    sessionId: "",
    role: "user",
    parts: [{ type: "text", text: intro + renderTranscript(input.messages, budget) }],
    createdAt: Date.now(),
  };
  let text = "";
  try {
    const stream = input.model.stream({
      system,
      messages: [request],
      tools: [],
      maxOutputTokens: input.maxOutputTokens,
      signal: input.signal,
    });
    for await (const event of stream) {
      if (event.type === "text_delta") text += event.delta;
      if (event.type === "retry") text = "";
    }
  } catch (error) {
    if (input.signal.aborted) throw error;
    if (error instanceof LatheError) return { ok: false, error: error.toInfo() };
    return fail(error instanceof Error ? error.message : String(error));
  }
  text = text.trim();
  return text ? { ok: true, text } : fail(`${input.model.modelId} wrote an empty summary.`);
}

function fail(message: string): SummarizeResult {
  return { ok: false, error: errorInfo("E_LLM_ERROR", message) };
}
