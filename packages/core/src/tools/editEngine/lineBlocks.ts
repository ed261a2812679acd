import type { Replacement } from "./editTypes.js";
import type { Haystack } from "./haystack.js";
import { analyzeIndentation } from "./indentation.js";
import { mapsLineForLine, reindentLineByLine } from "./lineByLineIndent.js";
import { collapseWhitespace, type LineIndex, leadingWhitespace } from "./lineIndex.js";

/** old_string as whole lines, for the strategies that compare line by line. */
export interface LineNeedle {
  lines: readonly string[];
  /** old_string ended with a line break, so the LF after the last matched line is replaced too. */
  consumesNewline: boolean;
  replacement: string;
}

export function lineNeedleOf(oldText: string, replacement: string): LineNeedle {
  const consumesNewline = oldText.endsWith("\n");
  const lines = (consumesNewline ? oldText.slice(0, -1) : oldText).split("\n");
  return { lines, consumesNewline, replacement };
}

/** Blocks of the file equal to old_string line by line up to whitespace, sorted by strategy. */
export interface LineBlockMatches {
  /** Lines equal once both ends are trimmed, at old_string's own indentation. */
  lineTrimmed: Replacement[];
  /** Lines equal once runs of whitespace are collapsed, at old_string's own indentation. */
  whitespaceNormalized: Replacement[];
  /**
   * Lines equal up to whitespace at another indentation that one rule explains (the whole block
   * moved by an offset, or its indentation levels made wider or narrower); new_string is
   * re-indented by the same rule. A block whose lines are old_string's line for line, each moved
   * by its own amount, counts too; new_string is then re-indented line by line. Empty when no
   * block can take new_string (see applicableBlocks).
   */
  indentationFlexible: Replacement[];
}

/** A block found at another indentation, and whether new_string can be re-indented onto it. */
export interface IndentedCandidate {
  replacement: Replacement;
  /** One rule explains its indentation, or its lines are old_string's line for line. */
  applicable: boolean;
}

/**
 * A block new_string cannot be re-indented onto (no rule explains its indentation and its lines
 * differ from old_string's by more than indentation) is never applied, even when it is the only
 * one. It still counts as a place the model may have meant, so an applicable block beside it is
 * ambiguous rather than chosen.
 */
export function applicableBlocks(candidates: readonly IndentedCandidate[]): Replacement[] {
  if (!candidates.some((candidate) => candidate.applicable)) return [];
  return candidates.map((candidate) => candidate.replacement);
}

/**
 * Whole lines are compared, so a match always covers complete lines of the file and never
 * reaches past old_string onto the rest of a line. A block at another indentation is a bigger
 * departure from old_string than whitespace inside lines, so it only counts when no block at
 * old_string's own indentation does.
 */
export function lineBlockMatches(haystack: Haystack, needle: LineNeedle): LineBlockMatches {
  const { index } = haystack;
  const matches: LineBlockMatches = { lineTrimmed: [], whitespaceNormalized: [], indentationFlexible: [] };
  const indented: IndentedCandidate[] = [];
  for (const first of blockStarts(index, needle.lines)) {
    const pairs = needle.lines.map((old, offset) => ({ old, file: index.line(first + offset) }));
    const adjustment = analyzeIndentation(pairs);
    const lineForLine = adjustment.relation === "irregular" && mapsLineForLine(pairs);
    const replacement = blockReplacement(haystack, {
      firstLine: first,
      lineCount: needle.lines.length,
      consumesNewline: needle.consumesNewline,
      keepFirstIndent: adjustment.keepFirstIndent,
      text: lineForLine
        ? reindentLineByLine(pairs, needle.replacement, adjustment.keepFirstIndent)
        : adjustment.reindent(needle.replacement),
    });
    if (replacement === undefined) continue;
    if (adjustment.relation !== "same") {
      indented.push({ replacement, applicable: adjustment.relation !== "irregular" || lineForLine });
      continue;
    }
    matches.whitespaceNormalized.push(replacement);
    if (pairs.every((pair) => pair.old.trim() === pair.file.trim())) matches.lineTrimmed.push(replacement);
  }
  matches.indentationFlexible = applicableBlocks(indented);
  return matches;
}

/** First lines of the blocks whose lines equal `lines` after collapsing whitespace. */
function blockStarts(index: LineIndex, lines: readonly string[]): number[] {
  const keys = lines.map(collapseWhitespace);
  // Looking up the rarest line first keeps the candidates few even when old_string starts with "}".
  let anchor = 0;
  let anchorHits = index.linesCollapsedTo(keys[0] ?? "");
  for (const [offset, key] of keys.entries()) {
    const hits = index.linesCollapsedTo(key);
    if (hits.length < anchorHits.length) {
      anchor = offset;
      anchorHits = hits;
    }
  }
  const starts: number[] = [];
  for (const hit of anchorHits) {
    const first = hit - anchor;
    if (first < 0 || first + keys.length > index.lines.length) continue;
    if (keys.every((key, offset) => index.collapsed(first + offset) === key)) starts.push(first);
  }
  return starts;
}

export interface BlockPlacement {
  firstLine: number;
  lineCount: number;
  consumesNewline: boolean;
  keepFirstIndent: boolean;
  text: string;
}

/** The span of whole lines a block covers, as a replacement in the file; undefined if it cannot map. */
export function blockReplacement(haystack: Haystack, placement: BlockPlacement): Replacement | undefined {
  const { index } = haystack;
  const firstText = index.line(placement.firstLine);
  const indent = placement.keepFirstIndent ? leadingWhitespace(firstText).length : 0;
  const start = (index.starts[placement.firstLine] ?? 0) + indent;
  let end = index.lineEnd(placement.firstLine + placement.lineCount - 1);
  if (placement.consumesNewline && end < index.text.length) end += 1;
  if (!haystack.isBoundary(start) || !haystack.isBoundary(end)) return undefined;
  return { start: haystack.toBase(start), end: haystack.toBase(end), text: placement.text };
}
