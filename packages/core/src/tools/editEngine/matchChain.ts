import { blockAnchorMatches } from "./blockAnchor.js";
import type { MatchStrategyName, Replacement } from "./editTypes.js";
import { unescapeOverEscaped } from "./escapeNormalization.js";
import { exactReplacements } from "./exactMatch.js";
import { type Haystack, plainHaystack } from "./haystack.js";
import { inlineWhitespaceMatches } from "./inlineWhitespace.js";
import { type LineBlockMatches, lineBlockMatches, lineNeedleOf } from "./lineBlocks.js";
import type { LineIndex } from "./lineIndex.js";
import { toLf } from "./textForm.js";
import { boundaryTrimmedNeedle } from "./trimmedBoundary.js";
import { normalizeUnicode, unicodeHaystack } from "./unicodeNormalization.js";

export type ChainOutcome =
  | { kind: "found"; strategy: MatchStrategyName; replacement: Replacement }
  | { kind: "ambiguous"; strategy: MatchStrategyName; replacements: Replacement[] }
  | { kind: "none" };

/**
 * Tries the strategies from strictest to loosest. The first strategy that finds anything
 * decides: one place is the match; several are an ambiguity reported as such, never resolved by
 * a looser strategy picking one of them.
 */
export function findUniqueMatch(index: LineIndex, oldText: string, newText: string): ChainOutcome {
  const plain = plainHaystack(index);
  let blocks: LineBlockMatches | undefined;
  const blocksOf = () => {
    blocks ??= lineBlockMatches(plain, lineNeedleOf(oldText, newText));
    return blocks;
  };
  const strategies: [MatchStrategyName, () => Replacement[]][] = [
    ["exact", () => exactReplacements(plain, oldText, newText)],
    ["line-trimmed", () => blocksOf().lineTrimmed],
    [
      "whitespace-normalized",
      () => [...blocksOf().whitespaceNormalized, ...inlineWhitespaceMatches(plain, oldText, newText)],
    ],
    ["indentation-flexible", () => blocksOf().indentationFlexible],
    ["escape-normalized", () => escapeNormalized(plain, oldText, newText)],
    ["unicode-normalized", () => unicodeNormalized(plain, oldText, newText)],
    ["trimmed-boundary", () => trimmedBoundary(plain, oldText, newText)],
    ["block-anchor", () => blockAnchor(plain, oldText, newText)],
  ];
  for (const [strategy, find] of strategies) {
    const replacements = distinct(find());
    const [only] = replacements;
    if (only === undefined) continue;
    if (replacements.length === 1) return { kind: "found", strategy, replacement: only };
    return { kind: "ambiguous", strategy, replacements };
  }
  return { kind: "none" };
}

/** The exact and line-by-line strategies for a rewritten old_string, strictest first. */
function strictestFirst(haystack: Haystack, oldText: string, newText: string): Replacement[] {
  const exact = exactReplacements(haystack, oldText, newText);
  if (exact.length > 0) return exact;
  return firstNonEmpty(lineBlockMatches(haystack, lineNeedleOf(oldText, newText)));
}

/** new_string was over-escaped the same way as old_string, so it is unescaped too. */
function escapeNormalized(plain: Haystack, oldText: string, newText: string): Replacement[] {
  const unescapedOld = toLf(unescapeOverEscaped(oldText));
  if (unescapedOld === oldText) return [];
  return strictestFirst(plain, unescapedOld, toLf(unescapeOverEscaped(newText)));
}

/** new_string is written as given: its characters are what the model means the file to hold. */
function unicodeNormalized(plain: Haystack, oldText: string, newText: string): Replacement[] {
  const normalizedOld = normalizeUnicode(oldText);
  const view = unicodeHaystack(plain.index.text);
  if (view === undefined && normalizedOld === oldText) return [];
  return strictestFirst(view ?? plain, normalizedOld, newText);
}

function trimmedBoundary(plain: Haystack, oldText: string, newText: string): Replacement[] {
  const trimmed = boundaryTrimmedNeedle(oldText, newText);
  if (trimmed === undefined || !trimmed.trimmed) return [];
  return firstNonEmpty(lineBlockMatches(plain, trimmed.needle));
}

function blockAnchor(plain: Haystack, oldText: string, newText: string): Replacement[] {
  const trimmed = boundaryTrimmedNeedle(oldText, newText);
  if (trimmed === undefined) return [];
  return blockAnchorMatches(plain, trimmed.needle);
}

function firstNonEmpty(blocks: LineBlockMatches): Replacement[] {
  for (const found of [blocks.lineTrimmed, blocks.whitespaceNormalized, blocks.indentationFlexible]) {
    if (found.length > 0) return found;
  }
  return [];
}

function distinct(replacements: Replacement[]): Replacement[] {
  const seen = new Set<string>();
  return replacements.filter((replacement) => {
    const key = `${replacement.start}:${replacement.end}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
