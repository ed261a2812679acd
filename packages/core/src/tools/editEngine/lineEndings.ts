export type LineEnding = "\n" | "\r\n";

/** A line of the file an edit replaces; `ending` is undefined for a last line without one. */
export interface EndedLine {
  text: string;
  ending: LineEnding | undefined;
}

/** The ending a file mostly uses: CRLF only when more lines end with CRLF than with LF. */
export function usualEnding(crlfCount: number, lfCount: number): LineEnding {
  return crlfCount > lfCount ? "\r\n" : "\n";
}

/**
 * The one rule for the endings of the lines an edit writes, shared by edit_file, multi_edit and
 * apply_patch, so a file with mixed endings keeps each line's own:
 * - a written line equal to a replaced one at the same place, counted from the start or from the
 *   end of the change, is that line and keeps its ending;
 * - the other written lines take, in order, the endings of the other replaced lines, and those
 *   beyond them the ending of the last of these;
 * - with no replaced line left to take it from, a line takes the ending of the line before it in
 *   the change, else the one after it, else `nearby` (the line of the file the change touches).
 * Undefined means the file's usual ending.
 */
export function endingsOfWrittenLines(
  replaced: readonly EndedLine[],
  written: readonly string[],
  nearby: LineEnding | undefined,
): (LineEnding | undefined)[] {
  const shorter = Math.min(replaced.length, written.length);
  let prefix = 0;
  while (prefix < shorter && replaced[prefix]?.text === written[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < shorter - prefix &&
    replaced[replaced.length - 1 - suffix]?.text === written[written.length - 1 - suffix]
  ) {
    suffix++;
  }
  const middle = replaced.slice(prefix, replaced.length - suffix);
  const fallback = replaced[prefix - 1]?.ending ?? replaced[replaced.length - suffix]?.ending ?? nearby;
  return written.map((_, at) => {
    if (at < prefix) return replaced[at]?.ending;
    const fromEnd = written.length - 1 - at;
    if (fromEnd < suffix) return replaced[replaced.length - 1 - fromEnd]?.ending;
    if (middle.length === 0) return fallback;
    return middle[Math.min(at - prefix, middle.length - 1)]?.ending;
  });
}
