import { usualEnding } from "../../editEngine/index.js";

export interface TextLine {
  text: string;
  /** "\n", "\r\n", or "" for a last line without a newline; undefined: the file's usual ending. */
  ending: string | undefined;
}

export interface LineDocument {
  bom: boolean;
  lines: TextLine[];
  /** Whether the last line ends with a newline. */
  finalNewline: boolean;
  /** The file's usual line ending, given to added lines. */
  eol: "\n" | "\r\n";
}

const byteOrderMark = "\uFEFF";

/** Splits text into lines, remembering each line's ending, the BOM and the final newline. */
export function splitLines(text: string): LineDocument {
  const bom = text.startsWith(byteOrderMark);
  const body = bom ? text.slice(1) : text;
  const lines: TextLine[] = [];
  let crlf = 0;
  let lf = 0;
  let start = 0;
  for (;;) {
    const newline = body.indexOf("\n", start);
    if (newline === -1) break;
    const isCrlf = newline > start && body[newline - 1] === "\r";
    if (isCrlf) crlf++;
    else lf++;
    lines.push({ text: body.slice(start, isCrlf ? newline - 1 : newline), ending: isCrlf ? "\r\n" : "\n" });
    start = newline + 1;
  }
  if (start < body.length) lines.push({ text: body.slice(start), ending: "" });
  return {
    bom,
    lines,
    // An empty file gets a final newline once lines are added, as an editor would write it.
    finalNewline: body === "" || body.endsWith("\n"),
    // A last line without a newline has no ending to count for either side.
    eol: usualEnding(crlf, lf),
  };
}

/**
 * Joins lines back: a line keeps its own ending, a line without one (added with no ending to take,
 * or the old last line) gets the file's usual one, and the last line ends with a newline exactly
 * when the original file's did.
 */
export function joinLines(document: LineDocument): string {
  const { lines } = document;
  const parts: string[] = document.bom ? ["\uFEFF"] : [];
  for (const [index, line] of lines.entries()) {
    const isLast = index === lines.length - 1;
    const ending = line.ending === undefined || line.ending === "" ? document.eol : line.ending;
    parts.push(line.text, isLast && !document.finalNewline ? "" : ending);
  }
  return parts.join("");
}
