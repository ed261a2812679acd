/** Two whitespace characters in a row, or one that is not a plain space. */
const collapsible = /\s\s|[^\S ]/;

/** A line with runs of whitespace made one space and both ends trimmed. */
export function collapseWhitespace(line: string): string {
  const trimmed = line.trim();
  // Testing first is much cheaper than rewriting, and most lines need no rewriting.
  return collapsible.test(trimmed) ? trimmed.replace(/\s+/g, " ") : trimmed;
}

export function leadingWhitespace(line: string): string {
  let end = 0;
  while (end < line.length && (line[end] === " " || line[end] === "\t")) end++;
  return line.slice(0, end);
}

export function isBlank(line: string): boolean {
  return line.trim() === "";
}

/**
 * The lines of an LF text, indexed once so the fuzzy strategies look candidates up by key
 * instead of comparing old_string against every position of the file. Keys and maps are built
 * on first use: most edits match exactly and never need them.
 */
export class LineIndex {
  readonly text: string;
  /** Lines without their LF; a final LF does not start another line. */
  readonly lines: readonly string[];
  readonly starts: readonly number[];
  private trimmedLines: string[] | undefined;
  private collapsedLines: string[] | undefined;
  private byTrimmed: Map<string, number[]> | undefined;
  private byCollapsed: Map<string, number[]> | undefined;

  constructor(text: string) {
    this.text = text;
    const lines = text === "" ? [] : text.split("\n");
    if (text.endsWith("\n")) lines.pop();
    const starts: number[] = [];
    let offset = 0;
    for (const line of lines) {
      starts.push(offset);
      offset += line.length + 1;
    }
    this.lines = lines;
    this.starts = starts;
  }

  line(index: number): string {
    return this.lines[index] ?? "";
  }

  /** Offset just past the line's text, before its LF. */
  lineEnd(index: number): number {
    return (this.starts[index] ?? this.text.length) + this.line(index).length;
  }

  /** The 0-based line holding `offset`; an offset at the very end belongs to the last line. */
  lineAt(offset: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if ((this.starts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return Math.max(low, 0);
  }

  trimmed(index: number): string {
    this.trimmedLines ??= this.lines.map((line) => line.trim());
    return this.trimmedLines[index] ?? "";
  }

  collapsed(index: number): string {
    this.collapsedLines ??= this.lines.map(collapseWhitespace);
    return this.collapsedLines[index] ?? "";
  }

  linesTrimmedTo(key: string): readonly number[] {
    this.byTrimmed ??= groupLines(this.lines.length, (index) => this.trimmed(index));
    return this.byTrimmed.get(key) ?? [];
  }

  linesCollapsedTo(key: string): readonly number[] {
    this.byCollapsed ??= groupLines(this.lines.length, (index) => this.collapsed(index));
    return this.byCollapsed.get(key) ?? [];
  }
}

function groupLines(count: number, keyOf: (index: number) => string): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  for (let index = 0; index < count; index++) {
    const key = keyOf(index);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [index]);
    else group.push(index);
  }
  return groups;
}
