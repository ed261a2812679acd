import { type ColumnAlign, tableAt } from "./markdownTable.js";

/** A run of text with the marks it is shown with. */
export interface Span {
  text: string;
  bold?: boolean;
  italic?: boolean;
  code?: boolean;
}

/** One block of an answer, as the terminal shows it. */
export type MarkdownBlock =
  | { kind: "heading"; spans: Span[] }
  | { kind: "item"; depth: number; marker: string; spans: Span[] }
  | { kind: "code"; text: string; language?: string }
  | { kind: "table"; header: Span[][]; align: ColumnAlign[]; rows: Span[][][] }
  | { kind: "paragraph"; spans: Span[] }
  | { kind: "blank" };

/**
 * The blocks of a markdown answer, line by line, so a streaming answer re-parses cheaply and an
 * unclosed code fence shows as code while it streams. Pipe tables become tables once their
 * delimiter row is complete; the rest stays as its text.
 */
export function markdownBlocks(text: string): MarkdownBlock[] {
  const blocks: MarkdownBlock[] = [];
  const lines = text.split("\n");
  let code: { language?: string; lines: string[] } | undefined;
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at] ?? "";
    if (code !== undefined) {
      if (/^\s*```+\s*$/.test(line)) {
        blocks.push(codeBlock(code));
        code = undefined;
      } else code.lines.push(line);
      continue;
    }
    const fence = /^\s*```+\s*([^\s`]*)/.exec(line);
    if (fence) {
      code = { language: fence[1] || undefined, lines: [] };
      continue;
    }
    const table = tableAt(lines, at);
    if (table) {
      blocks.push({
        kind: "table",
        header: table.header.map(inlineSpans),
        align: table.align,
        rows: table.rows.map((row) => row.map(inlineSpans)),
      });
      at += table.length - 1;
      continue;
    }
    blocks.push(lineBlock(line));
  }
  if (code !== undefined) blocks.push(codeBlock(code));
  return blocks;
}

function codeBlock(code: { language?: string; lines: string[] }): MarkdownBlock {
  const text = code.lines.join("\n");
  return code.language === undefined
    ? { kind: "code", text }
    : { kind: "code", text, language: code.language };
}

function lineBlock(line: string): MarkdownBlock {
  if (line.trim() === "") return { kind: "blank" };
  const heading = /^#{1,6}\s+(.*)$/.exec(line);
  if (heading) return { kind: "heading", spans: inlineSpans(heading[1] ?? "") };
  const item = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/.exec(line);
  if (item) {
    const marker = /\d/.test(item[2] ?? "") ? (item[2] ?? "") : "•";
    return {
      kind: "item",
      depth: Math.floor((item[1] ?? "").length / 2),
      marker,
      spans: inlineSpans(item[3] ?? ""),
    };
  }
  return { kind: "paragraph", spans: inlineSpans(line) };
}

/** `code`, **bold** and *italic* (or _italic_) within a line; anything unclosed stays as typed. */
export function inlineSpans(line: string): Span[] {
  const spans: Span[] = [];
  const pattern = /`([^`]+)`|\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*|_([^_\s][^_]*)_/g;
  let last = 0;
  for (const match of line.matchAll(pattern)) {
    if (match.index > last) spans.push({ text: line.slice(last, match.index) });
    if (match[1] !== undefined) spans.push({ text: match[1], code: true });
    else if (match[2] !== undefined) spans.push({ text: match[2], bold: true });
    else spans.push({ text: match[3] ?? match[4] ?? "", italic: true });
    last = match.index + match[0].length;
  }
  if (last < line.length) spans.push({ text: line.slice(last) });
  return spans;
}
