import type { OutputLimits } from "../../tool.js";
import type { FileHits, HitLine, SearchOutcome } from "./searchTypes.js";

export interface FormatOptions {
  pattern: string;
  caseInsensitive: boolean;
  /** The searched path as the model gave it, relative to the project root. */
  target: string;
  glob: string | undefined;
  contextLines: number;
  matchLimit: number;
  limits: OutputLimits;
  timeoutMs: number;
}

/** Longer lines are cut around their first match, so a minified file cannot fill the output. */
const maxLineChars = 500;
/** Characters kept before the match when a long line is cut. */
const leadChars = 100;
/** Room kept under the caps for the footer line. */
const footerReserveBytes = 512;
/**
 * Built on first use and kept: `toLocaleString` sets up number formatting again on every call,
 * and building it when the module loads would cost every start-up ~15 ms of ICU set-up.
 */
let numbers: Intl.NumberFormat | undefined;
function formatNumber(value: number): string {
  numbers ??= new Intl.NumberFormat("en-US");
  return numbers.format(value);
}

/**
 * Renders results grouped by file, in path and line order: `path:line: text` for a matching line,
 * `path:line- text` for a context line, `--` between separate groups when context is shown. Stops
 * at the match limit or the output caps, whichever comes first, and says what was left out.
 */
export function formatSearchResults(
  outcome: SearchOutcome,
  options: FormatOptions,
): { output: string; metadata: Record<string, unknown> } {
  const metadata: Record<string, unknown> = {
    totalMatches: outcome.totalMatches,
    totalFiles: outcome.totalFiles,
  };
  if (outcome.totalMatches === 0) {
    return { output: [noMatches(options), ...stoppedNote(outcome, options)].join("\n"), metadata };
  }
  const rendered = renderLines(outcome.files, options);
  metadata.shownMatches = rendered.shownMatches;
  const notes = [...stoppedNote(outcome, options)];
  if (rendered.shownMatches < outcome.totalMatches) notes.push(moreNote(outcome, rendered, options));
  return { output: [...rendered.lines, ...notes].join("\n"), metadata };
}

interface Rendered {
  lines: string[];
  shownMatches: number;
  shownFiles: number;
  cutBySize: boolean;
}

function renderLines(files: readonly FileHits[], options: FormatOptions): Rendered {
  const maxBytes = options.limits.maxBytes - footerReserveBytes;
  const maxLines = options.limits.maxLines - 2;
  const lines: string[] = [];
  let bytes = 0;
  let shownMatches = 0;
  let shownFiles = 0;
  let previous: { path: string; number: number } | undefined;
  for (const file of files) {
    let lastShownMatch: number | undefined;
    for (const line of file.lines) {
      const limitReached = shownMatches >= options.matchLimit;
      // Past the limit only the after-context of the last shown match is still shown.
      if (limitReached && (line.match || lastShownMatch === undefined)) return done(false);
      if (limitReached && line.number > (lastShownMatch ?? 0) + options.contextLines) return done(false);
      const separated =
        options.contextLines > 0 &&
        previous !== undefined &&
        (previous.path !== file.path || line.number !== previous.number + 1);
      const text = renderLine(file.path, line);
      const added = Buffer.byteLength(text) + 1 + (separated ? 3 : 0);
      if (lines.length + (separated ? 2 : 1) > maxLines || bytes + added > maxBytes) return done(true);
      if (separated) lines.push("--");
      lines.push(text);
      bytes += added;
      previous = { path: file.path, number: line.number };
      if (!line.match) continue;
      if (lastShownMatch === undefined) shownFiles++;
      lastShownMatch = line.number;
      shownMatches++;
    }
  }
  return done(false);

  function done(cutBySize: boolean): Rendered {
    return { lines, shownMatches, shownFiles, cutBySize };
  }
}

function renderLine(filePath: string, line: HitLine): string {
  const text = line.text.endsWith("\r") ? line.text.slice(0, -1) : line.text;
  return `${filePath}:${line.number}${line.match ? ":" : "-"} ${cutLine(text, line.column)}`;
}

function cutLine(text: string, column: number | undefined): string {
  if (text.length <= maxLineChars) return text;
  let start =
    column === undefined ? 0 : Math.max(0, Math.min(column - leadChars, text.length - maxLineChars));
  let end = start + maxLineChars;
  // Never split a surrogate pair.
  if (isLowSurrogate(text.charCodeAt(start))) start++;
  if (isLowSurrogate(text.charCodeAt(end))) end--;
  const head = start > 0 ? "…" : "";
  const tail = end < text.length ? "…" : "";
  return `${head}${text.slice(start, end)}${tail} [line of ${formatNumber(text.length)} characters cut]`;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

function describeQuery(options: FormatOptions): string {
  const where = options.target === "." ? "the project" : options.target;
  const among = options.glob === undefined ? "" : ` (files matching ${JSON.stringify(options.glob)})`;
  const caseNote = options.caseInsensitive ? ", ignoring case" : "";
  return `${JSON.stringify(options.pattern)} in ${where}${among}${caseNote}`;
}

function noMatches(options: FormatOptions): string {
  return (
    `No matches for ${describeQuery(options)}. ` +
    "Hidden files were searched; files ignored by .gitignore, binary files and built-in ignored " +
    "directories (node_modules, dist, build, .git, …) were not."
  );
}

function moreNote(outcome: SearchOutcome, rendered: Rendered, options: FormatOptions): string {
  const remaining = outcome.totalMatches - rendered.shownMatches;
  const why = rendered.cutBySize
    ? `the output limit (${Math.round(options.limits.maxBytes / 1024)} KB) was reached`
    : `at most ${options.matchLimit} matching lines are shown`;
  return (
    `[${count(remaining, "more matching line")} not shown: ${why}. ` +
    `Shown ${rendered.shownMatches} of ${count(outcome.totalMatches, "matching line")}, ` +
    `in ${rendered.shownFiles} of ${count(outcome.totalFiles, "file")}. ` +
    'Narrow the search with a more specific pattern, a path or a glob (e.g. "*.ts").]'
  );
}

function stoppedNote(outcome: SearchOutcome, options: FormatOptions): string[] {
  if (outcome.stopped === "cancelled") return ["[The search was cancelled; results are incomplete.]"];
  if (outcome.stopped !== "timeout") return [];
  return [
    `[The search stopped after ${Math.round(options.timeoutMs / 1000)} s; results are incomplete. ` +
      "Narrow it with a path or a glob.]",
  ];
}

function count(value: number, noun: string): string {
  return `${formatNumber(value)} ${noun}${value === 1 ? "" : "s"}`;
}
