export type SeekResult =
  | { kind: "found"; index: number }
  | { kind: "missing" }
  | { kind: "ambiguous"; indexes: number[] };

/**
 * Ways of comparing a file line with a patch line, strictest first (as Codex's seek_sequence):
 * models often get trailing or indenting whitespace wrong while the text is right.
 */
const lineComparisons: readonly ((fileLine: string, patchLine: string) => boolean)[] = [
  (fileLine, patchLine) => fileLine === patchLine,
  (fileLine, patchLine) => fileLine.trimEnd() === patchLine.trimEnd(),
  (fileLine, patchLine) => fileLine.trim() === patchLine.trim(),
];

/**
 * Finds where `pattern` occurs in `lines` at or after `start`. The strictest comparison that finds
 * anything decides, and it must find exactly one place: a hunk that fits two places could change
 * the wrong one. `atEnd` requires the pattern to end the file.
 */
export function seekLines(
  lines: readonly string[],
  pattern: readonly string[],
  start: number,
  atEnd: boolean,
): SeekResult {
  if (pattern.length === 0) return { kind: "found", index: start };
  const lastStart = lines.length - pattern.length;
  const firstCandidate = atEnd ? Math.max(start, lastStart) : start;
  for (const matches of lineComparisons) {
    const found: number[] = [];
    for (let index = firstCandidate; index <= lastStart; index++) {
      if (pattern.every((patternLine, offset) => matches(lines[index + offset] ?? "", patternLine))) {
        found.push(index);
      }
    }
    const [only] = found;
    if (found.length === 1 && only !== undefined) return { kind: "found", index: only };
    if (found.length > 1) return { kind: "ambiguous", indexes: found };
  }
  return { kind: "missing" };
}
