import { type LineNeedle, lineNeedleOf } from "./lineBlocks.js";
import { isBlank } from "./lineIndex.js";

export interface TrimmedNeedle {
  needle: LineNeedle;
  /** Blank lines were removed at either end. */
  trimmed: boolean;
}

/**
 * old_string without the blank lines at its start and end, which models add or drop freely;
 * new_string loses as many blank lines (at most) at the same ends, so the blank lines of the file
 * around the match stay as they are. Undefined when old_string is nothing but blank lines.
 */
export function boundaryTrimmedNeedle(oldText: string, newText: string): TrimmedNeedle | undefined {
  const full = lineNeedleOf(oldText, newText);
  const leading = countWhile(full.lines, isBlank);
  if (leading === full.lines.length) return undefined;
  const trailing = countWhile([...full.lines].reverse(), isBlank);

  // The line break old_string ends with belongs to its last blank line when that is trimmed, so
  // the line break after the matched text is the file's own and stays.
  const consumesNewline = full.consumesNewline && trailing === 0;
  const newEndsLine = full.consumesNewline && newText.endsWith("\n");
  const newLines = (newEndsLine ? newText.slice(0, -1) : newText).split("\n");
  const newLeading = Math.min(leading, countWhile(newLines, isBlank));
  const newTrailing = Math.min(
    trailing,
    countWhile([...newLines].reverse(), isBlank),
    newLines.length - newLeading,
  );
  const replacement = newLines.slice(newLeading, newLines.length - newTrailing).join("\n");
  return {
    needle: {
      lines: full.lines.slice(leading, full.lines.length - trailing),
      consumesNewline,
      replacement: consumesNewline && newEndsLine ? `${replacement}\n` : replacement,
    },
    trimmed: leading > 0 || trailing > 0,
  };
}

function countWhile<T>(items: readonly T[], predicate: (item: T) => boolean): number {
  let count = 0;
  while (count < items.length && predicate(items[count] as T)) count++;
  return count;
}
