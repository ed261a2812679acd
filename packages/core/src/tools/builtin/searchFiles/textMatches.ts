import type { HitLine } from "./searchTypes.js";

interface MatchedLine {
  number: number;
  start: number;
  /** Index of the line's "\n", or the text's length for a last line without one. */
  end: number;
  column: number;
}

export interface TextMatches {
  matchCount: number;
  /** The first `keep` matching lines with their context, in line order. */
  lines: HitLine[];
}

/**
 * Finds the lines of `text` that `regex` matches. The regex (global, from `compileRustRegex`)
 * runs over the whole text rather than line by line: it cannot match across a line break, so
 * every match lies in one line, and after a match the search jumps to the next line. Only the
 * first `keep` matching lines are kept with their context; the rest are counted.
 */
export function findTextMatches(
  text: string,
  regex: RegExp,
  keep: number,
  contextLines: number,
): TextMatches {
  const matched: MatchedLine[] = [];
  let matchCount = 0;
  // A final "\n" ends the last line; it does not start an empty one.
  if (text.length === 0) return { matchCount: 0, lines: [] };
  const lastLineEnd = text.endsWith("\n") ? text.length - 1 : text.length;
  let lineNumber = 1;
  let lineStart = 0;
  regex.lastIndex = 0;
  for (;;) {
    const found = regex.exec(text);
    if (found === null || found.index > lastLineEnd) break;
    // V8 tries zero-width matches (`^$`) between the halves of a surrogate pair, which no match can
    // start at; ripgrep never reports one.
    if (splitsSurrogatePair(text, found.index)) {
      regex.lastIndex = found.index + 1;
      continue;
    }
    for (;;) {
      const newline = text.indexOf("\n", lineStart);
      if (newline === -1 || newline >= found.index) break;
      lineNumber++;
      lineStart = newline + 1;
    }
    const newline = text.indexOf("\n", found.index);
    const end = newline === -1 ? text.length : newline;
    matchCount++;
    if (matched.length < keep)
      matched.push({ number: lineNumber, start: lineStart, end, column: found.index - lineStart });
    if (newline === -1) break;
    regex.lastIndex = newline + 1;
  }
  return { matchCount, lines: withContext(text, matched, contextLines) };
}

function withContext(text: string, matched: readonly MatchedLine[], contextLines: number): HitLine[] {
  if (contextLines === 0) {
    return matched.map((line) => ({
      number: line.number,
      text: text.slice(line.start, line.end),
      match: true,
      column: line.column,
    }));
  }
  const byNumber = new Map<number, HitLine>();
  for (const line of matched) {
    byNumber.set(line.number, {
      number: line.number,
      text: text.slice(line.start, line.end),
      match: true,
      column: line.column,
    });
  }
  const addContext = (number: number, start: number, end: number) => {
    if (!byNumber.has(number)) byNumber.set(number, { number, text: text.slice(start, end), match: false });
  };
  for (const line of matched) {
    let start = line.start;
    for (let number = line.number - 1; number >= Math.max(1, line.number - contextLines); number--) {
      const end = start - 1;
      start = end === 0 ? 0 : text.lastIndexOf("\n", end - 1) + 1;
      addContext(number, start, end);
    }
    let end = line.end;
    for (let number = line.number + 1; number <= line.number + contextLines; number++) {
      if (end >= text.length - 1) break;
      const next = end + 1;
      const newline = text.indexOf("\n", next);
      end = newline === -1 ? text.length : newline;
      addContext(number, next, end);
    }
  }
  return [...byNumber.values()].sort((a, b) => a.number - b.number);
}

function splitsSurrogatePair(text: string, index: number): boolean {
  const before = text.charCodeAt(index - 1);
  const at = text.charCodeAt(index);
  return before >= 0xd800 && before <= 0xdbff && at >= 0xdc00 && at <= 0xdfff;
}
