import { stem } from "./stem.js";

/** Words and identifiers: letters, digits, `_` and `$`, not starting with a digit. */
const wordPattern = /[\p{L}_$][\p{L}\p{N}_$]*/gu;
/** The parts of one identifier: `parseJSONSchema` → parse, JSON, Schema; `utf8Decode` → utf8, Decode. */
const partPattern = /\p{Lu}+(?!\p{Ll})\p{N}*|\p{Lu}?\p{Ll}+\p{N}*|\p{N}+/gu;

/**
 * Terms too common to tell chunks apart, dropped from the index and from queries alike: English
 * words a question is made of, and the keywords every chunk of code repeats. Keeping them would
 * only grow the postings.
 */
const stopWords: ReadonlySet<string> = new Set(
  (
    "a an the of to in on at by for from with into and or not is are was be been it its as that " +
    "this these those which what where when how does do there their if else then so can all any " +
    "some we you i my our one " +
    "const let var return new true false null undefined import export self def fn pub func " +
    "public private static void"
  ).split(" "),
);

/**
 * The search terms of a text, in order, repeats kept: every identifier split at camelCase, digits
 * and `_`/`$` into lowercased, lightly stemmed parts, plus the whole identifier lowercased when it
 * has several parts, so `createSourceFile` matches both "create source file" and itself exactly.
 */
export function tokenize(text: string): string[] {
  const terms: string[] = [];
  for (const [word] of text.matchAll(wordPattern)) addWordTerms(word, terms);
  return terms;
}

function addWordTerms(word: string, terms: string[]): void {
  const parts = identifierParts(word);
  for (const part of parts) {
    const term = normalizePart(part);
    if (term !== undefined) terms.push(term);
  }
  if (parts.length > 1) {
    const whole = wholeName(word);
    if (whole.length > 2) terms.push(whole);
  }
}

function identifierParts(word: string): string[] {
  const parts: string[] = [];
  for (const piece of word.split(/[_$]+/)) {
    for (const [part] of piece.matchAll(partPattern)) parts.push(part);
  }
  return parts;
}

/** Single letters and bare numbers say nothing on their own. */
function normalizePart(part: string): string | undefined {
  const lower = part.toLowerCase();
  if (lower.length < 2 || /^\p{N}+$/u.test(lower) || stopWords.has(lower)) return undefined;
  return stem(lower);
}

/** A name's parts as terms, without the whole-name term: `isSameOrigin` → same, origin. */
export function nameParts(name: string): string[] {
  return identifierParts(name).flatMap((part) => normalizePart(part) ?? []);
}

/** A word as the whole-identifier term: lowercased, without `_` and `$`. */
export function wholeName(word: string): string {
  return word.toLowerCase().replace(/[_$]/g, "");
}

/** The words of a text, as written (identifiers whole). */
export function wordsOf(text: string): string[] {
  return [...text.matchAll(wordPattern)].map(([word]) => word);
}
