import path from "node:path";
import type { MatchCollector } from "./matchCollector.js";
import type { HitLine } from "./searchTypes.js";

interface OpenFile {
  path: string;
  /** False when the glob leaves the file out. */
  included: boolean;
  /** Whether its lines may be shown; when not, its matches are only counted. */
  keep: boolean;
  rawLines: string[];
  matchCount: number;
  keptMatches: number;
}

export interface RipgrepJsonOptions {
  matchLimit: number;
  includeFile: ((relativePath: string) => boolean) | undefined;
}

const quote = 0x22;
const brace = 0x7b;
const letterT = "t".charCodeAt(0);
const newline = 0x0a;
/** Each message starts `{"type":"` and the type decides what to do: its first letter is enough. */
const typeLetterOffset = '{"type":"'.length;
const begin = "b".charCodeAt(0);
const match = "m".charCodeAt(0);
const context = "c".charCodeAt(0);
const end = "e".charCodeAt(0);

/**
 * Reads ripgrep's `--json` output as it streams. A broad pattern over a large tree yields hundreds
 * of megabytes of JSON, and parsing it all would cost several times ripgrep's own search, so most
 * of it is never parsed or even decoded: only the lines of a file that can still be among the
 * shown results are kept (and parsed at the file's end). For any other file the reader only finds
 * line breaks (a native byte search) and looks at one byte of each line to spot the file's
 * closing message, whose statistics give the file's count.
 */
export class RipgrepJsonReader {
  /** True once ripgrep reported any file: an exit status of 2 is then not a failed search. */
  sawOutput = false;
  private pending: Buffer[] = [];
  private file: OpenFile | undefined;
  /** Between a file's opening and closing messages, when its lines are not needed. */
  private skipping = false;
  /** While skipping: the previous chunk ended inside a line. */
  private midLine = false;

  constructor(
    private readonly collector: MatchCollector,
    private readonly options: RipgrepJsonOptions,
  ) {}

  push(chunk: Buffer): void {
    let position = 0;
    while (position < chunk.length) {
      position = this.skipping ? this.skip(chunk, position) : this.readLine(chunk, position);
    }
  }

  /** ripgrep ended: a last message without a line break is still read. */
  finish(): void {
    if (this.pending.length === 0 || this.skipping) return;
    const joined = Buffer.concat(this.pending);
    this.pending = [];
    this.message(joined, 0, joined.length);
  }

  private readLine(chunk: Buffer, position: number): number {
    const lineEnd = chunk.indexOf(newline, position);
    if (lineEnd === -1) {
      this.pending.push(chunk.subarray(position));
      return chunk.length;
    }
    if (this.pending.length === 0) {
      this.message(chunk, position, lineEnd);
    } else {
      // Only a message longer than a chunk is joined: a huge line is copied once, not per chunk.
      this.pending.push(chunk.subarray(position, lineEnd));
      const joined = Buffer.concat(this.pending);
      this.pending = [];
      this.message(joined, 0, joined.length);
    }
    return lineEnd + 1;
  }

  /**
   * Moves to the start of the current file's closing message, or to the end of the chunk. From
   * `position` on, the chunk is at a line start unless the previous chunk ended inside a line.
   */
  private skip(chunk: Buffer, position: number): number {
    let lineStart = position;
    if (this.midLine) {
      const lineEnd = chunk.indexOf(newline, position);
      if (lineEnd === -1) return chunk.length;
      this.midLine = false;
      lineStart = lineEnd + 1;
    }
    for (;;) {
      // Too few bytes left to tell the line's type: it is read in full instead.
      if (chunk.length - lineStart <= typeLetterOffset || isClosingMessage(chunk, lineStart)) {
        this.skipping = false;
        return lineStart;
      }
      const lineEnd = chunk.indexOf(newline, lineStart);
      if (lineEnd === -1) {
        this.midLine = true;
        return chunk.length;
      }
      lineStart = lineEnd + 1;
    }
  }

  private message(buffer: Buffer, start: number, stop: number): void {
    // The closing summary is written `{"data":…`; it is not needed.
    if (stop - start <= typeLetterOffset || buffer[start + 2] !== letterT || buffer[start + 1] !== quote) {
      return;
    }
    const letter = buffer[start + typeLetterOffset];
    if (letter === match || letter === context) this.line(buffer, start, stop, letter === match);
    else if (letter === begin) this.begin(JSON.parse(buffer.toString("utf8", start, stop)));
    else if (letter === end) this.end(JSON.parse(buffer.toString("utf8", start, stop)));
  }

  private begin(message: unknown): void {
    this.sawOutput = true;
    const filePath = resultPath(field(field(message, "data"), "path"));
    const included = this.options.includeFile?.(filePath) ?? true;
    const keep = included && this.collector.wants(filePath);
    this.file = { path: filePath, included, keep, rawLines: [], matchCount: 0, keptMatches: 0 };
    if (!keep) this.skipping = true;
  }

  private line(buffer: Buffer, start: number, stop: number, isMatch: boolean): void {
    const file = this.file;
    if (file === undefined) return;
    if (!file.keep) {
      this.skipping = true;
      return;
    }
    if (isMatch) file.matchCount++;
    // One match past the limit marks where the shown lines must stop; the rest are not needed.
    if (file.keptMatches > this.options.matchLimit) {
      this.skipping = true;
      return;
    }
    if (isMatch) file.keptMatches++;
    file.rawLines.push(buffer.toString("utf8", start, stop));
  }

  private end(message: unknown): void {
    const file = this.file;
    this.file = undefined;
    if (file === undefined || !file.included) return;
    const data = field(message, "data");
    // A file with a NUL byte is binary: ripgrep stops searching it, and nothing of it is shown.
    const binaryOffset = field(data, "binary_offset");
    if (binaryOffset !== null && binaryOffset !== undefined) return;
    const matchedLines = field(field(data, "stats"), "matched_lines");
    const matchCount = typeof matchedLines === "number" ? matchedLines : file.matchCount;
    if (!file.keep) {
      this.collector.count(matchCount);
      return;
    }
    const { rawLines } = file;
    // Parsed only if the file is still among the shown ones once ripgrep is done.
    this.collector.add({ path: file.path, matchCount, lines: () => rawLines.map(parseLine) });
  }
}

function isClosingMessage(chunk: Buffer, lineStart: number): boolean {
  return (
    chunk[lineStart + typeLetterOffset] === end &&
    chunk[lineStart + 2] === letterT &&
    chunk[lineStart] === brace
  );
}

function parseLine(raw: string): HitLine {
  const data = field(JSON.parse(raw), "data");
  const lineNumber = field(data, "line_number");
  const text = stripLineBreak(textOf(field(data, "lines")));
  const isMatch = raw.startsWith('{"type":"match"');
  const line: HitLine = { number: typeof lineNumber === "number" ? lineNumber : 0, text, match: isMatch };
  if (!isMatch) return line;
  const first = firstSubmatchStart(field(data, "submatches"));
  if (first !== undefined) line.column = utf16Index(text, first);
  return line;
}

function firstSubmatchStart(submatches: unknown): number | undefined {
  if (!Array.isArray(submatches)) return undefined;
  const start = field(submatches[0], "start");
  return typeof start === "number" ? start : undefined;
}

/** ripgrep reports the match start in bytes; the shown line is cut in characters. */
function utf16Index(text: string, byteOffset: number): number {
  if (Buffer.byteLength(text) === text.length) return byteOffset;
  return Buffer.from(text, "utf8").subarray(0, byteOffset).toString("utf8").length;
}

function stripLineBreak(text: string): string {
  return text.endsWith("\n") ? text.slice(0, -1) : text;
}

/** ripgrep writes valid UTF-8 as `text` and anything else as base64 `bytes`. */
function textOf(value: unknown): string {
  const text = field(value, "text");
  if (typeof text === "string") return text;
  const bytes = field(value, "bytes");
  return typeof bytes === "string" ? Buffer.from(bytes, "base64").toString("utf8") : "";
}

/** The path relative to the project root, "/"-separated, as the other engine writes it. */
function resultPath(value: unknown): string {
  const raw = textOf(value);
  const posix = path.sep === "/" ? raw : raw.split(path.sep).join("/");
  return posix.startsWith("./") ? posix.slice(2) : posix;
}

function field(value: unknown, key: string): unknown {
  if (typeof value !== "object" || value === null) return undefined;
  return (value as Record<string, unknown>)[key];
}
