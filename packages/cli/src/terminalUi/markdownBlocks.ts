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
  | { kind: "code"; text: string }
  | { kind: "paragraph"; spans: Span[] }
  | { kind: "blank" };

/**
 * The blocks of a markdown answer, line by line, so a streaming answer re-parses cheaply and an
 * unclosed code fence shows as code while it streams. Tables and the rest stay as their text.
 */
export function markdownBlocks(text: string): MarkdownBlock[] {
  const blocks: MarkdownBlock[] = [];
  let code: string[] | undefined;
  for (const line of text.split("\n")) {
    if (/^\s*```/.test(line)) {
      if (code === undefined) code = [];
      else {
        blocks.push({ kind: "code", text: code.join("\n") });
        code = undefined;
      }
      continue;
    }
    if (code !== undefined) {
      code.push(line);
      continue;
    }
    blocks.push(lineBlock(line));
  }
  if (code !== undefined) blocks.push({ kind: "code", text: code.join("\n") });
  return blocks;
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
