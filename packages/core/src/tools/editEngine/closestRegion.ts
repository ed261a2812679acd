import { lineNeedleOf } from "./lineBlocks.js";
import { collapseWhitespace, type LineIndex, leadingWhitespace } from "./lineIndex.js";
import { BigramProfile } from "./similarity.js";

const contextLines = 2;
/** A long region is shown by its two ends. */
const maxShownLines = 40;
const maxShownChars = 300;
const maxDifferencesNamed = 3;
/** Lines used for the fuzzy fallback when no line of old_string is in the file as it is. */
const fuzzyProbeLines = 3;

/**
 * The E_NOT_FOUND message: where the file looks most like old_string, numbered as read_file
 * numbers lines, with what differs there, so the model can correct old_string without reading
 * the whole file again.
 */
export function notFoundMessage(index: LineIndex, oldText: string): string {
  if (index.lines.length === 0) return "old_string was not found: the file is empty.";
  const oldLines = lineNeedleOf(oldText, "").lines;
  const size = Math.min(oldLines.length, index.lines.length);
  const first = closestWindow(index, oldLines, size);
  const last = first + size - 1;
  const where = size === 1 ? `line ${first + 1}` : `lines ${first + 1}-${last + 1}`;
  const differences = describeDifferences(index, oldLines, first, size);
  const why = differsOnlyInIndentation(index, oldLines, first) ? inconsistentIndentation : "";
  return [
    `old_string was not found in the file. The closest region is ${where}${differences}${why}:`,
    ...numberedRegion(
      index,
      Math.max(0, first - contextLines),
      Math.min(index.lines.length - 1, last + contextLines),
    ),
  ].join("\n");
}

/**
 * The start of the window of `size` lines most like old_string. Lines found as they are vote for
 * the window they imply, rare lines weighing more than common ones ("}"); with no such line, the
 * longest lines of old_string are compared with every line of the file.
 */
function closestWindow(index: LineIndex, oldLines: readonly string[], size: number): number {
  const scores = new Float64Array(index.lines.length - size + 1);
  let voted = false;
  for (const [offset, line] of oldLines.entries()) {
    const key = collapseWhitespace(line);
    if (key === "") continue;
    const hits = index.linesCollapsedTo(key);
    for (const hit of hits) voted = vote(scores, hit - offset, 1 / hits.length) || voted;
  }
  if (!voted) {
    const probes = oldLines
      .map((line, offset) => ({ key: collapseWhitespace(line), offset }))
      .sort((a, b) => b.key.length - a.key.length)
      .slice(0, fuzzyProbeLines);
    for (const { key, offset } of probes) {
      const profile = new BigramProfile(key);
      for (let line = 0; line < index.lines.length; line++) {
        vote(scores, line - offset, profile.similarity(index.collapsed(line)));
      }
    }
  }
  let best = 0;
  for (let start = 1; start < scores.length; start++) {
    if ((scores[start] ?? 0) > (scores[best] ?? 0)) best = start;
  }
  return best;
}

function vote(scores: Float64Array, start: number, weight: number): boolean {
  if (start < 0 || start >= scores.length || weight <= 0) return false;
  scores[start] = (scores[start] ?? 0) + weight;
  return true;
}

function describeDifferences(
  index: LineIndex,
  oldLines: readonly string[],
  first: number,
  size: number,
): string {
  const notes: string[] = [];
  let differing = 0;
  for (let offset = 0; offset < size; offset++) {
    const fileLine = index.line(first + offset);
    const oldLine = oldLines[offset] ?? "";
    if (fileLine === oldLine) continue;
    differing++;
    if (notes.length < maxDifferencesNamed) {
      notes.push(
        `line ${offset + 1} of old_string ${howLinesDiffer(oldLine, fileLine)} line ${first + offset + 1}`,
      );
    }
  }
  if (differing > notes.length) notes.push(`${differing - notes.length} more lines differ`);
  if (oldLines.length > size) notes.push(`old_string has ${oldLines.length} lines, the file only ${size}`);
  return notes.length === 0 ? "" : ` (${notes.join("; ")})`;
}

/**
 * Said when every line is in the file but the block was still refused: the indentation-flexible
 * strategy found no single rule to re-indent new_string by, and guessing would mix indentation.
 */
const inconsistentIndentation =
  ". Every line is there, but old_string's indentation does not map onto the file's by one rule (an offset, or one indentation width for another), so new_string could not be indented safely; copy the indentation exactly from the file";

function differsOnlyInIndentation(index: LineIndex, oldLines: readonly string[], first: number): boolean {
  if (first + oldLines.length > index.lines.length) return false;
  let reindented = false;
  for (const [offset, oldLine] of oldLines.entries()) {
    const fileLine = index.line(first + offset);
    if (collapseWhitespace(oldLine) !== collapseWhitespace(fileLine)) return false;
    if (oldLine.trim() !== "" && leadingWhitespace(oldLine) !== leadingWhitespace(fileLine))
      reindented = true;
  }
  return reindented;
}

function howLinesDiffer(oldLine: string, fileLine: string): string {
  if (oldLine.trim() === fileLine.trim()) {
    return leadingWhitespace(oldLine) === leadingWhitespace(fileLine)
      ? "differs in trailing whitespace from"
      : "differs in indentation from";
  }
  if (collapseWhitespace(oldLine) === collapseWhitespace(fileLine)) return "differs in spacing from";
  if (fileLine.includes(oldLine)) return "is only part of";
  return "differs from";
}

function numberedRegion(index: LineIndex, from: number, to: number): string[] {
  const numbered = (line: number) => {
    const text = index.line(line);
    const shown = text.length > maxShownChars ? `${text.slice(0, maxShownChars)} …` : text;
    return `${String(line + 1).padStart(6)}|${shown}`;
  };
  const count = to - from + 1;
  if (count <= maxShownLines) return Array.from({ length: count }, (_, offset) => numbered(from + offset));
  const half = maxShownLines / 2;
  return [
    ...Array.from({ length: half }, (_, offset) => numbered(from + offset)),
    `[… ${count - maxShownLines} lines not shown …]`,
    ...Array.from({ length: half }, (_, offset) => numbered(to - half + 1 + offset)),
  ];
}
