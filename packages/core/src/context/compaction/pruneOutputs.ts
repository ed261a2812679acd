import type { Message } from "@lathe/protocol";
import type { TokenLedger } from "../tokens/tokenLedger.js";

/** An output this small stays: the note that replaced it would save next to nothing. */
const minPrunableTokens = 100;

/**
 * Which tool outputs to replace by notes, newest first: outputs the model has not answered yet
 * (after the last assistant message) always stay, then the newest ones up to `keepTokens`; from
 * the first output that does not fit, every older one goes. A clean cut, rather than keeping small
 * old outputs that would still fit, changes the prompt's prefix once instead of at every request.
 */
export function outputsToPrune(
  view: readonly Message[],
  alreadyPruned: ReadonlyMap<string, number>,
  ledger: TokenLedger,
  keepTokens: number,
): Map<string, number> {
  const lastAnswer = view.findLastIndex((message) => message.role === "assistant");
  const prune = new Map<string, number>();
  let kept = 0;
  let cutting = false;
  for (let i = view.length - 1; i >= 0; i--) {
    const parts = view[i]!.parts;
    for (let j = parts.length - 1; j >= 0; j--) {
      const part = parts[j]!;
      if (part.type !== "tool_result" || alreadyPruned.has(part.callId)) continue;
      const tokens = ledger.partTokens(part);
      if (i > lastAnswer || (!cutting && kept + tokens <= keepTokens)) {
        kept += tokens;
        continue;
      }
      cutting = true;
      if (tokens >= minPrunableTokens) prune.set(part.callId, tokens);
    }
  }
  return prune;
}
