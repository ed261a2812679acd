import type { Replacement } from "./editTypes.js";
import type { Haystack } from "./haystack.js";

/**
 * Start offsets of `needle` in `text`. Overlapping occurrences count when deciding whether a match
 * is unique ("aa" is twice in "aaa"); replacing all takes them left to right without overlap.
 */
export function occurrencesOf(text: string, needle: string, overlapping: boolean): number[] {
  const starts: number[] = [];
  if (needle === "") return starts;
  const step = overlapping ? 1 : needle.length;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + step)) starts.push(at);
  return starts;
}

/** Every place the needle occurs as it is, partial lines included, as replacements in the file. */
export function exactReplacements(haystack: Haystack, needle: string, replacement: string): Replacement[] {
  return occurrencesOf(haystack.index.text, needle, true)
    .filter((start) => haystack.isBoundary(start) && haystack.isBoundary(start + needle.length))
    .map((start) => ({
      start: haystack.toBase(start),
      end: haystack.toBase(start + needle.length),
      text: replacement,
    }));
}
