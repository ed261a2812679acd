import { type Haystack, type ResizedStretch, resizedHaystack } from "./haystack.js";

/** Typographic characters models and editors swap for their ASCII look-alikes, and back. */
const lookAlikes: ReadonlyMap<string, string> = new Map([
  ...[..."\u2018\u2019\u201A\u201B\u2032"].map((character) => [character, "'"] as const),
  ...[..."\u201C\u201D\u201E\u201F\u2033"].map((character) => [character, '"'] as const),
  ...[..."\u2010\u2011\u2012\u2013\u2014\u2015\u2212"].map((character) => [character, "-"] as const),
  ...[..."\u00A0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A\u202F\u205F\u3000"].map(
    (character) => [character, " "] as const,
  ),
  ["\u2026", "..."],
]);

const lookAlikePattern = new RegExp(`[${[...lookAlikes.keys()].join("")}]`, "g");
/** A base character with the combining marks that follow it: the unit NFC may compose. */
const characterWithMarks = /\P{M}\p{M}*|\p{M}+/gsu;
/** Anything but printable ASCII and line whitespace; text without it needs no normalising. */
const beyondPlainAscii = /[^\t\n\r\x20-\x7E]/;

export function normalizeUnicode(text: string): string {
  return text
    .normalize("NFC")
    .replace(lookAlikePattern, (character) => lookAlikes.get(character) ?? character);
}

/** The file with the same normalisation, undefined when it has nothing to normalise. */
export function unicodeHaystack(baseText: string): Haystack | undefined {
  if (!beyondPlainAscii.test(baseText)) return undefined;
  const parts: string[] = [];
  const stretches: ResizedStretch[] = [];
  let viewLength = 0;
  let lineStart = 0;
  while (lineStart < baseText.length) {
    const newline = baseText.indexOf("\n", lineStart);
    const lineEnd = newline === -1 ? baseText.length : newline + 1;
    const line = baseText.slice(lineStart, lineEnd);
    // Piece by piece, so a match can still start or end right next to a rewritten character.
    let copied = 0;
    for (const { text, offset, normalized } of rewrittenUnits(line)) {
      if (normalized === text) continue;
      parts.push(line.slice(copied, offset), normalized);
      viewLength += offset - copied;
      if (normalized.length !== text.length) {
        const baseStart = lineStart + offset;
        const baseEnd = baseStart + text.length;
        stretches.push({
          viewStart: viewLength,
          viewEnd: viewLength + normalized.length,
          baseStart,
          baseEnd,
        });
      }
      viewLength += normalized.length;
      copied = offset + text.length;
    }
    parts.push(line.slice(copied));
    viewLength += line.length - copied;
    lineStart = lineEnd;
  }
  return resizedHaystack(parts.join(""), stretches);
}

/**
 * The parts of a line normalisation may rewrite, in order: look-alike characters, or where NFC
 * composes anything, every character with the combining marks that follow it.
 */
function rewrittenUnits(line: string): { text: string; offset: number; normalized: string }[] {
  if (!beyondPlainAscii.test(line)) return [];
  if (line.normalize("NFC") === line) {
    return Array.from(line.matchAll(lookAlikePattern), (unit) => ({
      text: unit[0],
      offset: unit.index,
      normalized: lookAlikes.get(unit[0]) ?? unit[0],
    }));
  }
  return Array.from(line.matchAll(characterWithMarks), (unit) => ({
    text: unit[0],
    offset: unit.index,
    normalized: normalizeUnicode(unit[0]),
  }));
}
