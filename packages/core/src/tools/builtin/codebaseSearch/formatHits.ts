import type { CodeSearchHit } from "../../toolServices.js";

/** Lines of each hit shown: enough for a signature and its doc comment. */
export const snippetLines = 12;
/** Longer lines are cut, so that a minified line cannot fill the output. */
const maxLineChars = 200;

/**
 * One block per hit, best first: `path:start-end  symbol (kind)`, then the first lines of the
 * chunk numbered as read_file numbers them, so a follow-up read can aim at them.
 */
export function formatHits(hits: readonly CodeSearchHit[]): string {
  return hits.map(formatHit).join("\n\n");
}

function formatHit(hit: CodeSearchHit): string {
  const symbol =
    hit.symbol === undefined ? "" : `  ${hit.symbol}${hit.kind === undefined ? "" : ` (${hit.kind})`}`;
  const header = `${hit.path}:${hit.startLine}-${hit.endLine}${symbol}`;
  const lines = hit.snippet.split("\n");
  const shown = lines.slice(0, Math.min(snippetLines, hit.endLine - hit.startLine + 1));
  const body = shown.map((text, index) => `${String(hit.startLine + index).padStart(6)}|${cut(text)}`);
  const hidden = hit.endLine - hit.startLine + 1 - shown.length;
  if (hidden > 0) body.push(`      [${hidden} more line${hidden === 1 ? "" : "s"}]`);
  return [header, ...body].join("\n");
}

function cut(text: string): string {
  const line = text.endsWith("\r") ? text.slice(0, -1) : text;
  return line.length <= maxLineChars ? line : `${line.slice(0, maxLineChars)}…`;
}
