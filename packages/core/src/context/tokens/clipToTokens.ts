import { countTokens } from "./countTokens.js";

/**
 * The longest start of `text` (cut at a character, never inside a surrogate pair) whose tokens
 * stay within `maxTokens`. The cut is first guessed from the average characters per token, then
 * shrunk until it fits, which takes one or two counts for ordinary text.
 */
export function clipToTokens(text: string, maxTokens: number): string {
  if (maxTokens <= 0) return "";
  const total = countTokens(text);
  if (total <= maxTokens) return text;
  let chars = Math.floor((text.length * maxTokens) / total);
  while (chars > 0) {
    const candidate = sliceWhole(text, chars);
    if (countTokens(candidate) <= maxTokens) return candidate;
    chars = Math.floor(chars * 0.9);
  }
  return "";
}

function sliceWhole(text: string, chars: number): string {
  const code = text.charCodeAt(chars - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? chars - 1 : chars);
}
