import { utf8Head } from "../../../fileSystem/utf8Slice.js";

export interface CutLimits {
  maxChars: number;
  maxBytes: number;
  maxLines: number;
}

export interface CutText {
  text: string;
  cut: boolean;
  /** Lines shown whole; reading on from line `wholeLines + 1` misses nothing. */
  wholeLines: number;
}

/**
 * The beginning of `text` within every limit, cut at a line end so the rest can be read from a
 * line number. When whole lines fill less than half the character budget (a page of a few giant
 * lines), the next line is shown in part rather than leaving the budget unused.
 */
export function cutText(text: string, limits: CutLimits): CutText {
  const lines = text.split("\n");
  let chars = 0;
  let bytes = 0;
  let wholeLines = 0;
  for (const line of lines) {
    const separator = wholeLines > 0 ? 1 : 0;
    const nextChars = chars + separator + line.length;
    const nextBytes = bytes + separator + Buffer.byteLength(line);
    if (wholeLines >= limits.maxLines || nextChars > limits.maxChars || nextBytes > limits.maxBytes) break;
    chars = nextChars;
    bytes = nextBytes;
    wholeLines++;
  }
  if (wholeLines === lines.length) return { text, cut: false, wholeLines };

  const kept = lines.slice(0, wholeLines).join("\n");
  if (chars >= limits.maxChars / 2 || wholeLines >= limits.maxLines)
    return { text: kept, cut: true, wholeLines };
  const separator = wholeLines > 0 ? "\n" : "";
  const room = limits.maxChars - chars - separator.length;
  const partial = utf8Head(
    withoutBrokenPair(lines[wholeLines]?.slice(0, room) ?? ""),
    limits.maxBytes - bytes - separator.length,
  );
  return { text: `${kept}${separator}${partial}`, cut: true, wholeLines };
}

/** A slice can end between the two halves of a surrogate pair; the lone half is dropped. */
function withoutBrokenPair(text: string): string {
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? text.slice(0, -1) : text;
}
