import type { CodeSearchHit, CodeSearchIndex } from "../../tools/toolServices.js";
import { numberedLines, splitLines, tagged } from "./contextText.js";
import type { SourceContext } from "./sourceContext.js";

/**
 * Code the index finds for the user's latest message (seed 001 D1 priority 6), only when more than
 * searchMinRemainingTokens are left: retrieval is the least certain source, so it gets what the
 * others leave. A slow or failing index costs a note, never the rest of the block.
 */
export async function addSearchResults(
  context: SourceContext,
  index: CodeSearchIndex | undefined,
  query: string | undefined,
  signal: AbortSignal,
): Promise<void> {
  const { settings, assembly } = context;
  if (index === undefined || query === undefined || query.trim() === "") return;
  if (assembly.remaining <= settings.searchMinRemainingTokens) return;

  let hits: CodeSearchHit[];
  try {
    const bounded = AbortSignal.any([signal, AbortSignal.timeout(settings.searchTimeoutMs)]);
    hits = await index.search(query, { limit: settings.maxSearchResults }, bounded);
  } catch (error) {
    // Cancellation is reported by the caller, which checks the signal after every source.
    if (signal.aborted) return;
    const reason = error instanceof Error ? error.message : String(error);
    context.notes.push(`Code search gave no results: ${reason}`);
    return;
  }

  const items: string[] = [];
  const render = (more: readonly string[]) => tagged("search_results", {}, [...items, ...more].join("\n"));
  for (const hit of hits.slice(0, settings.maxSearchResults)) {
    if (context.shown.get(hit.path)?.complete === true) continue;
    const item = hitItem(hit);
    if (assembly.fits(render([item]))) items.push(item);
  }
  if (items.length === 0) return;
  assembly.add({ source: "search_results", text: render([]), items: items.length, files: [] });
}

function hitItem(hit: CodeSearchHit): string {
  const attributes = {
    path: hit.path,
    lines: `${hit.startLine}-${hit.endLine}`,
    symbol: hit.symbol,
    kind: hit.kind,
  };
  return tagged("result", attributes, numberedLines(splitLines(hit.snippet), hit.startLine));
}
