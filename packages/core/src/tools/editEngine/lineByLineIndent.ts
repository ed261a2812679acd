import { diffArrays } from "diff";
import type { LinePair } from "./indentation.js";
import { isBlank, leadingWhitespace } from "./lineIndex.js";

/** Columns a tab advances to when a line indented with tabs is shifted by a number of columns. */
const tabWidth = 4;

/**
 * Whether every line of old_string is the file line it was matched to once both are trimmed:
 * the block is the one the model quoted, only each line's indentation drifted by its own amount.
 */
export function mapsLineForLine(pairs: readonly LinePair[]): boolean {
  return pairs.every((pair) => pair.old.trim() === pair.file.trim());
}

/**
 * new_string placed on a block matched line for line whose indentation no single rule explains.
 * Each line of new_string is tied to a line of old_string: the same line where the two agree
 * (compared trimmed, in order), else the old line it rewrites, else for an added line the old
 * line before it (or after it, at the start). It moves by the columns that old line moved in the
 * file, so a line left as it was gets exactly the file's indentation and a new line keeps its
 * place relative to its neighbour. `keepFirstIndent` leaves the first line as written, since
 * the file's indentation before it stays. A new_string whose unchanged lines already have the
 * file's indentation (only old_string drifted) is written as it is.
 */
export function reindentLineByLine(
  pairs: readonly LinePair[],
  newText: string,
  keepFirstIndent: boolean,
): string {
  const newLines = newText.split("\n");
  const references = referenceLines(
    pairs.map((pair) => pair.old.trim()),
    newLines.map((line) => line.trim()),
  );
  if (writtenForFile(pairs, newLines, references, keepFirstIndent)) return newText;
  const fileUsesTabs = pairs.some((pair) => leadingWhitespace(pair.file).includes("\t"));
  return newLines
    .map((line, at) => {
      const pair = pairs[references[at] ?? 0];
      if (pair === undefined || isBlank(line) || (at === 0 && keepFirstIndent)) return line;
      const indent = leadingWhitespace(line);
      return shiftedIndent(indent, pair, fileUsesTabs) + line.slice(indent.length);
    })
    .join("\n");
}

/** Every line kept from old_string has the file's indentation in new_string, not old_string's. */
function writtenForFile(
  pairs: readonly LinePair[],
  newLines: readonly string[],
  references: readonly number[],
  keepFirstIndent: boolean,
): boolean {
  let differsFromOld = false;
  for (const [at, line] of newLines.entries()) {
    const pair = pairs[references[at] ?? 0];
    if (pair === undefined || isBlank(line) || (at === 0 && keepFirstIndent)) continue;
    if (line.trim() !== pair.old.trim()) continue;
    const indent = leadingWhitespace(line);
    if (indent !== leadingWhitespace(pair.file)) return false;
    if (indent !== leadingWhitespace(pair.old)) differsFromOld = true;
  }
  return differsFromOld;
}

/** For each new line, the index of the old line whose movement it follows. */
function referenceLines(oldKeys: string[], newKeys: string[]): number[] {
  const references: number[] = [];
  let oldAt = 0;
  let rewritten: number[] = [];
  for (const change of diffArrays(oldKeys, newKeys)) {
    if (change.removed) {
      rewritten = Array.from({ length: change.count }, (_, offset) => oldAt + offset);
      oldAt += change.count;
      continue;
    }
    if (change.added) {
      for (let offset = 0; offset < change.count; offset++) {
        const neighbour = oldAt > 0 ? oldAt - 1 : 0;
        references.push(rewritten[Math.min(offset, rewritten.length - 1)] ?? neighbour);
      }
      rewritten = [];
      continue;
    }
    for (let offset = 0; offset < change.count; offset++) references.push(oldAt + offset);
    oldAt += change.count;
    rewritten = [];
  }
  return references;
}

/** `indent` moved by as many columns as the pair's old line moved in the file. */
function shiftedIndent(indent: string, pair: LinePair, fileUsesTabs: boolean): string {
  const oldIndent = leadingWhitespace(pair.old);
  const fileIndent = leadingWhitespace(pair.file);
  if (indent === oldIndent) return fileIndent;
  const columns = Math.max(0, width(indent) - width(oldIndent) + width(fileIndent));
  if (!fileUsesTabs) return " ".repeat(columns);
  return "\t".repeat(Math.floor(columns / tabWidth)) + " ".repeat(columns % tabWidth);
}

function width(indent: string): number {
  let column = 0;
  for (const character of indent) {
    column = character === "\t" ? (Math.floor(column / tabWidth) + 1) * tabWidth : column + 1;
  }
  return column;
}
