import { splitCommand } from "./shellSplit.js";

/** A literal word, or `*`: any number of words, none included. */
export type PatternWord = { wildcard: true } | { wildcard: false; literal: string };

export type ParsedCommandPattern = { ok: true; words: PatternWord[] } | { ok: false; message: string };

/**
 * Reads a command rule (`npm test *`). Words are compared as the shell would pass them, so
 * quoting in the rule works as in a command (`'*'` is a literal star). The older `npm test:*`
 * spelling means `npm test *`. A `*` inside a word is refused: wildcards stand at word boundaries,
 * so that `npm test*` cannot quietly allow `npm testing`.
 */
export function parseCommandPattern(specifier: string): ParsedCommandPattern {
  const text = /[^\s]:\*$/.test(specifier) ? `${specifier.slice(0, -2)} *` : specifier;
  const split = splitCommand(text);
  if (!split.complete) return { ok: false, message: "the command has an unclosed quote or substitution" };
  if (split.segments.length !== 1 || split.topLevel.length !== 1) {
    return {
      ok: false,
      message: "a rule covers one simple command; write one rule per command instead of &&, ||, ;, | or $(…)",
    };
  }
  const [segment] = split.topLevel;
  if (segment === undefined) return { ok: false, message: "the command is empty" };
  if (segment.redirects) return { ok: false, message: "redirections (>, <) cannot be part of a rule" };
  const words: PatternWord[] = [];
  for (const word of segment.words) {
    if (word.raw === "*") {
      words.push({ wildcard: true });
      continue;
    }
    if (word.unquotedStar) {
      return {
        ok: false,
        message: `"*" must stand alone as a word (write "${text.replace(/([^\s])\*/g, "$1 *")}"), or be quoted to mean a literal star`,
      };
    }
    words.push({ wildcard: false, literal: word.value });
  }
  return { ok: true, words };
}

/** Whether the words of one simple command match the pattern, word by word. */
export function wordsMatch(pattern: readonly PatternWord[], words: readonly string[]): boolean {
  // reachable[j]: the pattern so far can consume exactly the first j words.
  let reachable = new Array<boolean>(words.length + 1).fill(false);
  reachable[0] = true;
  for (const part of pattern) {
    const next = new Array<boolean>(words.length + 1).fill(false);
    for (let j = 0; j <= words.length; j++) {
      if (!reachable[j]) continue;
      if (part.wildcard) {
        for (let k = j; k <= words.length; k++) next[k] = true;
        break;
      }
      if (j < words.length && words[j] === part.literal) next[j + 1] = true;
    }
    reachable = next;
  }
  return reachable[words.length] === true;
}
