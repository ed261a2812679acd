import { type EndedLine, endingsOfWrittenLines, type LineEnding, usualEnding } from "./lineEndings.js";

const byteOrderMark = "\uFEFF";

/**
 * A file's text as matching sees it (no BOM, LF line endings) plus what is needed to write an
 * edit back into the original: its BOM, its dominant line ending, and where CRLFs were, so bytes
 * outside the replaced spans stay exactly as they were, mixed line endings included.
 */
export interface TextForm {
  original: string;
  /** Text without BOM, every CRLF turned into LF. */
  normalized: string;
  bom: string;
  /** The line ending new text is written with. */
  eol: LineEnding;
  /** Offsets in `normalized` of the LFs that were CRLF in the original, ascending. */
  crlfOffsets: number[];
}

export function textFormOf(original: string): TextForm {
  const bom = original.startsWith(byteOrderMark) ? byteOrderMark : "";
  const body = original.slice(bom.length);
  const parts: string[] = [];
  const crlfOffsets: number[] = [];
  let lfCount = 0;
  let from = 0;
  let removed = 0;
  for (let newline = body.indexOf("\n"); newline !== -1; newline = body.indexOf("\n", newline + 1)) {
    if (newline > 0 && body[newline - 1] === "\r") {
      parts.push(body.slice(from, newline - 1));
      from = newline;
      removed++;
      crlfOffsets.push(newline - removed);
    } else {
      lfCount++;
    }
  }
  parts.push(body.slice(from));
  const eol = usualEnding(crlfOffsets.length, lfCount);
  return { original, normalized: parts.join(""), bom, eol, crlfOffsets };
}

/** Offset in the original text of an offset in the normalised text. */
export function originalOffset(form: TextForm, normalizedOffset: number): number {
  return form.bom.length + normalizedOffset + countBelow(form.crlfOffsets, normalizedOffset);
}

/** Text from the model, in the form matching uses. */
export function toLf(text: string): string {
  return text.split("\r\n").join("\n");
}

/**
 * `text` (LF) as it is written in place of the normalised span [start, end): each of its line
 * breaks gets the ending the shared rule gives it from the lines the span replaces.
 */
export function writtenText(form: TextForm, start: number, end: number, text: string): string {
  const written = text.split("\n");
  if (written.length === 1) return text;
  const replaced = endedLines(form, start, form.normalized.slice(start, end).split("\n"));
  const endings = endingsOfWrittenLines(replaced, written.slice(0, -1), nearbyEnding(form, start, end));
  return written.map((line, at) => line + (at < endings.length ? (endings[at] ?? form.eol) : "")).join("");
}

/** The span's lines that end inside it, each with the ending it has in the original. */
function endedLines(form: TextForm, start: number, segments: readonly string[]): EndedLine[] {
  const lines: EndedLine[] = [];
  let at = start;
  for (const text of segments.slice(0, -1)) {
    at += text.length;
    lines.push({ text, ending: endingAt(form, at) });
    at += 1;
  }
  return lines;
}

/** The ending of the line the span ends in, else of the last line before it. */
function nearbyEnding(form: TextForm, start: number, end: number): LineEnding | undefined {
  const after = form.normalized.indexOf("\n", end);
  if (after !== -1) return endingAt(form, after);
  const before = start === 0 ? -1 : form.normalized.lastIndexOf("\n", start - 1);
  return before === -1 ? undefined : endingAt(form, before);
}

function endingAt(form: TextForm, newlineOffset: number): LineEnding {
  const below = countBelow(form.crlfOffsets, newlineOffset);
  return form.crlfOffsets[below] === newlineOffset ? "\r\n" : "\n";
}

/** How many of the ascending `values` are less than `limit`. */
function countBelow(values: readonly number[], limit: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((values[middle] ?? limit) < limit) low = middle + 1;
    else high = middle;
  }
  return low;
}
