import type { Replacement } from "./editTypes.js";
import type { Haystack } from "./haystack.js";
import { analyzeIndentation, type LinePair } from "./indentation.js";
import { applicableBlocks, blockReplacement, type IndentedCandidate, type LineNeedle } from "./lineBlocks.js";
import { collapseWhitespace, type LineIndex } from "./lineIndex.js";
import { BigramProfile, similarityAtLeast } from "./similarity.js";

const minimumLines = 3;
const minimumMiddleSimilarity = 0.5;
/** Above this many table cells an exact edit distance costs too much; pairs of characters decide. */
const maxDistanceCells = 1_000_000;
/** Work allowed for comparing middles, in table cells, so common anchors cannot stall an edit. */
const comparisonBudget = 20_000_000;

/**
 * old_string of three or more lines whose first and last lines are in the file as they are
 * (trimmed), around a middle that is at least half alike and about as long: the model
 * misremembered lines inside a block it located correctly.
 */
export function blockAnchorMatches(haystack: Haystack, needle: LineNeedle): Replacement[] {
  const { lines } = needle;
  const firstKey = lines[0]?.trim() ?? "";
  const lastKey = lines[lines.length - 1]?.trim() ?? "";
  if (lines.length < minimumLines || firstKey === "" || lastKey === "") return [];

  const { index } = haystack;
  const oldMiddle = middleText(lines);
  const oldKeys = lines.map(collapseWhitespace);
  const candidates: IndentedCandidate[] = [];
  let budget = comparisonBudget;
  for (const { first, last } of anchorPairs(index, firstKey, lastKey, lines.length)) {
    const fileMiddle = middleText(index.lines.slice(first, last + 1));
    budget -= Math.min(oldMiddle.length * fileMiddle.length, maxDistanceCells);
    // Out of budget, two matches already make the ambiguity certain; fewer prove nothing.
    if (budget < 0) return candidates.length >= 2 ? applicableBlocks(candidates) : [];
    if (middleSimilarity(oldMiddle, fileMiddle) < minimumMiddleSimilarity) continue;
    const adjustment = analyzeIndentation(indentEvidence(index, lines, oldKeys, first, last));
    const replacement = blockReplacement(haystack, {
      firstLine: first,
      lineCount: last - first + 1,
      consumesNewline: needle.consumesNewline,
      keepFirstIndent: adjustment.keepFirstIndent,
      text: adjustment.reindent(needle.replacement),
    });
    if (replacement !== undefined) {
      candidates.push({ replacement, applicable: adjustment.relation !== "irregular" });
    }
  }
  return applicableBlocks(candidates);
}

/**
 * The line pairs whose indentation new_string's placement must agree with: the anchors and, when
 * the block has old_string's length, every middle line found as it is. Judging by the anchors
 * alone would re-indent a block whose unchanged middle lines contradict the rule they suggest.
 */
function indentEvidence(
  index: LineIndex,
  lines: readonly string[],
  oldKeys: readonly string[],
  first: number,
  last: number,
): LinePair[] {
  const pairs: LinePair[] = [{ old: lines[0] ?? "", file: index.line(first) }];
  if (last - first + 1 === lines.length) {
    for (let offset = 1; offset < lines.length - 1; offset++) {
      if (index.collapsed(first + offset) === oldKeys[offset]) {
        pairs.push({ old: lines[offset] ?? "", file: index.line(first + offset) });
      }
    }
  }
  pairs.push({ old: lines[lines.length - 1] ?? "", file: index.line(last) });
  return pairs;
}

/** First and last lines of the blocks of about the needle's length that the anchors delimit. */
function* anchorPairs(
  index: LineIndex,
  firstKey: string,
  lastKey: string,
  lineCount: number,
): Generator<{ first: number; last: number }> {
  const tolerance = Math.floor(lineCount / 4);
  const lasts = index.linesTrimmedTo(lastKey);
  for (const first of index.linesTrimmedTo(firstKey)) {
    const lowest = Math.max(first + lineCount - 1 - tolerance, first + 1);
    const highest = first + lineCount - 1 + tolerance;
    for (let at = firstAtLeast(lasts, lowest); at < lasts.length; at++) {
      const last = lasts[at] ?? Number.POSITIVE_INFINITY;
      if (last > highest) break;
      yield { first, last };
    }
  }
}

function middleText(lines: readonly string[]): string {
  return lines.slice(1, -1).map(collapseWhitespace).join("\n");
}

function middleSimilarity(a: string, b: string): number {
  if (a.length * b.length > maxDistanceCells) return new BigramProfile(a).similarity(b);
  return similarityAtLeast(a, b, minimumMiddleSimilarity);
}

function firstAtLeast(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] ?? value) < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
