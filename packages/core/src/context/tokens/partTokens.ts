import type { Part } from "@lathe/protocol";
import { countTokens } from "./countTokens.js";

/**
 * What providers add around content, in tokens: role markers per message, the call or result
 * envelope per tool part. Rough on purpose; `TokenLedger.calibrate` absorbs the difference.
 */
export const messageOverheadTokens = 4;
const toolPartOverheadTokens = 6;
/** One image costs providers roughly this much at their default detail (Anthropic ~1.6k for a full-size image). */
const imageTokens = 1600;

export interface PartCounting {
  /** Whether earlier reasoning is sent back (only DeepSeek's thinking mode needs it, see promptConversion). */
  includeReasoning: boolean;
}

/** Estimated tokens of one part as the provider receives it (see `toProviderPrompt`). */
export function partTokens(part: Part, counting: PartCounting): number {
  switch (part.type) {
    case "text":
    case "compaction_summary":
      return countTokens(part.text);
    case "reasoning":
      return counting.includeReasoning ? countTokens(part.text) : 0;
    case "system_reminder":
      return reminderWrapperTokens() + countTokens(part.text);
    case "tool_call":
      return (
        toolPartOverheadTokens +
        countTokens(part.name) +
        countTokens(argumentsText(part.rawArguments, part.arguments))
      );
    case "tool_result":
      return toolPartOverheadTokens + countTokens(part.name) + countTokens(part.output);
    case "file":
      if (part.data === undefined) return countTokens(`[file: ${part.path}]`);
      if (part.mediaType.startsWith("image/")) return imageTokens;
      // Documents reach the model as extracted text: about a token per four bytes.
      return Math.ceil((part.data.length * 3) / 4 / 4);
  }
}

/** Providers receive the parsed arguments re-serialised; the streamed text is the same JSON in practice. */
function argumentsText(raw: string, parsed: unknown): string {
  return raw !== "" ? raw : JSON.stringify(parsed ?? {});
}

let reminderWrapper: number | undefined;

function reminderWrapperTokens(): number {
  reminderWrapper ??= countTokens("<system-reminder>\n\n</system-reminder>");
  return reminderWrapper;
}
