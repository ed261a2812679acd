import { diffArrays } from "diff";

/**
 * One hunk of a line diff, as a review shows it and a rejection puts back: the lines of both sides
 * it covers (0-based offsets) and its lines for display, each prefixed " ", "-" or "+" and without
 * its line ending.
 */
export interface LineHunk {
  oldIndex: number;
  oldCount: number;
  newIndex: number;
  newCount: number;
  lines: string[];
}

/** Lines kept around each change, as `git diff` keeps them; changes this close share a hunk. */
const contextLines = 3;

/** Splits text into lines that keep their endings, so joining them gives the text back byte for byte. */
export function splitLines(text: string): string[] {
  return text === "" ? [] : text.split(/(?<=\n)/);
}

const withoutEnding = (line: string) => line.replace(/\r?\n$/, "");

/** The hunks that turn `oldText` into `newText`: the same ones for showing and for rejecting. */
export function lineHunks(oldText: string, newText: string): LineHunk[] {
  const oldLines = splitLines(oldText);
  const newLines = splitLines(newText);
  // Runs of kept lines and of changes, with where each starts on both sides.
  const runs: { kind: " " | "-" | "+"; lines: string[]; oldIndex: number; newIndex: number }[] = [];
  let oldIndex = 0;
  let newIndex = 0;
  for (const change of diffArrays(oldLines, newLines)) {
    const kind = change.added ? "+" : change.removed ? "-" : " ";
    runs.push({ kind, lines: change.value, oldIndex, newIndex });
    if (kind !== "+") oldIndex += change.value.length;
    if (kind !== "-") newIndex += change.value.length;
  }
  const hunks: LineHunk[] = [];
  let open: LineHunk | undefined;
  for (const [at, run] of runs.entries()) {
    if (run.kind !== " ") {
      if (!open) {
        const before = runs[at - 1]?.kind === " " ? runs[at - 1]!.lines.slice(-contextLines) : [];
        open = {
          oldIndex: run.oldIndex - before.length,
          oldCount: before.length,
          newIndex: run.newIndex - before.length,
          newCount: before.length,
          lines: before.map((line) => ` ${withoutEnding(line)}`),
        };
      }
      for (const line of run.lines) open.lines.push(`${run.kind}${withoutEnding(line)}`);
      if (run.kind === "-") open.oldCount += run.lines.length;
      else open.newCount += run.lines.length;
      continue;
    }
    if (!open) continue;
    // Kept lines between two changes: one hunk when the gap is within both contexts.
    const last = at === runs.length - 1;
    const bridged = !last && run.lines.length <= 2 * contextLines;
    const kept = bridged ? run.lines : run.lines.slice(0, contextLines);
    for (const line of kept) open.lines.push(` ${withoutEnding(line)}`);
    open.oldCount += kept.length;
    open.newCount += kept.length;
    if (!bridged) {
      hunks.push(open);
      open = undefined;
    }
  }
  if (open) hunks.push(open);
  return hunks;
}

/**
 * `newText` with the hunks at the `rejected` indexes (of `lineHunks(oldText, newText)`) put back
 * as `oldText` had them; the other changes stay.
 */
export function rejectHunks(oldText: string, newText: string, rejected: ReadonlySet<number>): string {
  const oldLines = splitLines(oldText);
  const lines = splitLines(newText);
  const hunks = lineHunks(oldText, newText);
  // From the last hunk back, so the offsets of those before stay true.
  for (let index = hunks.length - 1; index >= 0; index--) {
    if (!rejected.has(index)) continue;
    const hunk = hunks[index]!;
    lines.splice(
      hunk.newIndex,
      hunk.newCount,
      ...oldLines.slice(hunk.oldIndex, hunk.oldIndex + hunk.oldCount),
    );
  }
  return lines.join("");
}

/** Lines added and removed over all hunks. */
export function hunkCounts(hunks: readonly LineHunk[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const hunk of hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith("+")) added++;
      else if (line.startsWith("-")) removed++;
    }
  }
  return { added, removed };
}
