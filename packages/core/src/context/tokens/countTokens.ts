import { createRequire } from "node:module";

type O200kCounter = (text: string, options: { disallowedSpecial: Set<string> }) => number;

/**
 * The encoding takes ~150 ms to load, so it is loaded on the first count rather than at start:
 * a short session whose requests are obviously small never needs it.
 */
let o200k: O200kCounter | undefined;
const requireModule = createRequire(import.meta.url);

function countO200k(text: string, options: { disallowedSpecial: Set<string> }): number {
  o200k ??= (requireModule("gpt-tokenizer/cjs/encoding/o200k_base") as { countTokens: O200kCounter })
    .countTokens;
  return o200k(text, options);
}

/**
 * Text that looks like a special token (`<|endoftext|>` in a file we read) is counted as the plain
 * text it is; by default the tokenizer throws on it.
 */
const plainText = { disallowedSpecial: new Set<string>() };

/**
 * Pieces are at most this long. BPE merging is quadratic in the length of one pre-token, and text
 * with no word breaks (a run of spaces, dashes or CJK characters, base64) is one pre-token: 100 KB
 * of it takes seconds in one piece and milliseconds in 2 KB pieces.
 */
const maxPieceChars = 2048;

/**
 * Tokens of `text` in o200k_base (the encoding of current OpenAI models; other providers' tokenizers
 * differ by a few percent, which `TokenLedger.calibrate` corrects).
 *
 * Long text is counted in pieces cut where the tokenizer starts a new pre-token anyway (at a space
 * after a non-space, after the last newline of a whitespace run, or where a run of letters or
 * digits ends), so the sum is exact. Only a stretch of more than 2 KB with no such place (one very
 * long word, a run of one character) is cut blindly, which may be off by a token or two per cut.
 */
export function countTokens(text: string): number {
  if (text === "") return 0;
  if (text.length < memoMinChars) return countPieces(text);
  const known = memo.get(text);
  if (known !== undefined) {
    // Refreshed as the newest entry, so what every request repeats stays.
    memo.delete(text);
    memo.set(text, known);
    return known;
  }
  const counted = countPieces(text);
  memo.set(text, counted);
  if (memo.size > memoEntries) memo.delete(memo.keys().next().value!);
  return counted;
}

/**
 * Each request counts the same large texts again: the system prompt, the tool schemas, files
 * open in the editor. Their counts are remembered by content (least recently used dropped).
 */
const memo = new Map<string, number>();
const memoEntries = 512;
const memoMinChars = 512;

function countPieces(text: string): number {
  if (text.length <= maxPieceChars) return countO200k(text, plainText);
  let total = 0;
  let start = 0;
  while (text.length - start > maxPieceChars) {
    const end = lastBreakBefore(text, start, start + maxPieceChars);
    total += countO200k(text.slice(start, end), plainText);
    start = end;
  }
  return total + countO200k(text.slice(start), plainText);
}

/** The last pre-token start in (start, limit], or `limit` (not inside a surrogate pair) when there is none. */
function lastBreakBefore(text: string, start: number, limit: number): number {
  for (let at = limit; at > start + 1; at--) {
    if (startsPreToken(text, at)) return at;
  }
  return isLowSurrogate(text.charCodeAt(limit)) ? limit - 1 : limit;
}

const space = /\s/;
const letter = /[\p{L}\p{M}]/u;
const digit = /\p{N}/u;

function startsPreToken(text: string, at: number): boolean {
  if (isLowSurrogate(text.charCodeAt(at))) return false;
  const before = isLowSurrogate(text.charCodeAt(at - 1)) ? text.slice(at - 2, at) : text[at - 1]!;
  const char = String.fromCodePoint(text.codePointAt(at)!);
  // A whitespace run that holds a newline is cut after its last newline, unless punctuation
  // before it takes the newline and a following "/" along (");\n//" is one pre-token).
  if (before === "\n" || before === "\r") return char !== "/" && !newlineBeforeNextWord(text, at);
  // " word", " (", "  ": no pre-token runs on from a non-space into a following space.
  if (char === " ") return !space.test(before);
  // Letters and digits end where something else starts (but an apostrophe may start "'s").
  if (space.test(char) || char === "'") return false;
  if (letter.test(before)) return !letter.test(char);
  return digit.test(before) && !digit.test(char);
}

function newlineBeforeNextWord(text: string, from: number): boolean {
  for (let at = from; at < text.length && space.test(text[at]!); at++) {
    if (text[at] === "\n" || text[at] === "\r") return true;
  }
  return false;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
