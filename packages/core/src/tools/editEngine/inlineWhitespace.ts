import type { Replacement } from "./editTypes.js";
import type { Haystack } from "./haystack.js";
import { collapseWhitespace } from "./lineIndex.js";

/**
 * A snippet inside one line whose spacing differs from the file (`price * qty` for
 * `price  *  qty`): found by its words with any run of spaces between them, and replaced only
 * over the span those words cover, so the rest of the line stays. Whitespace old_string has at its
 * ends is drift too; when it does, the match must not start or end inside a word, and new_string
 * loses as much whitespace at the same end. Lines that are the snippet as a whole are left to the
 * line-by-line strategies, which handle their indentation.
 */
export function inlineWhitespaceMatches(haystack: Haystack, oldText: string, newText: string): Replacement[] {
  const core = oldText.trim();
  if (oldText.includes("\n") || core === "" || (core === oldText && !/\s/.test(core))) return [];
  const leading = oldText.length - oldText.trimStart().length;
  const trailing = oldText.length - oldText.trimEnd().length;
  const words = core.split(/\s+/).map(escapeRegExp);
  const pattern = new RegExp(
    `${leading > 0 ? "(?<!\\w)" : ""}${words.join("[^\\S\\n]+")}${trailing > 0 ? "(?!\\w)" : ""}`,
    "g",
  );
  const replacement = trimEnds(newText, leading, trailing);
  const { index } = haystack;
  const wholeLine = collapseWhitespace(oldText);
  const matches: Replacement[] = [];
  for (let found = pattern.exec(index.text); found !== null; found = pattern.exec(index.text)) {
    const start = found.index;
    const end = start + found[0].length;
    // Overlapping occurrences count towards ambiguity, as they do for exact matches.
    pattern.lastIndex = start + 1;
    if (index.collapsed(index.lineAt(start)) === wholeLine) continue;
    if (!haystack.isBoundary(start) || !haystack.isBoundary(end)) continue;
    matches.push({ start: haystack.toBase(start), end: haystack.toBase(end), text: replacement });
  }
  return matches;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, (character) => `\\${character}`);
}

/** Removes up to `leading` whitespace characters at the start and `trailing` at the end. */
function trimEnds(text: string, leading: number, trailing: number): string {
  const rest = text.slice(Math.min(leading, text.length - text.trimStart().length));
  return rest.slice(0, rest.length - Math.min(trailing, rest.length - rest.trimEnd().length));
}
