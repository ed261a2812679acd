import { realpath } from "node:fs/promises";
import { errorInfo } from "@lathe/protocol";
import type { CodeSearchHit } from "../../tools/toolServices.js";
import { numberedLines, splitLines } from "../dynamic/contextText.js";
import type { Mention } from "./mention.js";
import type { MentionOutcome, ResolverContext } from "./mentionSources.js";
import { scanForDefinitions } from "./symbolScan.js";

const identifier = /^[A-Za-z_$][\w$]*$/;
/** Hits asked of the index: definitions rank high, but a few other chunks may rank higher. */
const indexHits = 20;
const linesPerDefinition = 15;

/**
 * `@symbol Name`: where Name is defined. The code index knows symbols exactly; without one, or
 * when it knows none by that name, files are scanned for the usual ways of defining it.
 */
export async function resolveSymbol(mention: Mention, context: ResolverContext): Promise<MentionOutcome> {
  const name = mention.argument;
  if (!identifier.test(name)) {
    const message = `@symbol takes one identifier (letters, digits, _ and $), not "${name}".`;
    return { type: "error", error: errorInfo("E_INVALID_ARGS", message) };
  }
  const indexed = await definitionsFromIndex(name, context);
  const sections =
    indexed.length > 0
      ? indexed.slice(0, context.limit.symbolDefinitions).map(indexedSection)
      : await scannedSections(name, context);
  if (sections.length === 0) {
    const error = {
      ...errorInfo("E_NOT_FOUND", `No definition of ${name} was found in the project.`),
      hint: "Check the symbol's spelling, or search for it with codebase_search or search_files.",
    };
    return { type: "error", error };
  }
  return { type: "attachment", title: `symbol ${name}`, text: sections.join("\n\n") };
}

async function definitionsFromIndex(name: string, context: ResolverContext): Promise<CodeSearchHit[]> {
  if (context.codeSearch === undefined) return [];
  let hits: CodeSearchHit[];
  try {
    hits = await context.codeSearch.search(name, { limit: indexHits }, context.signal);
  } catch (error) {
    if (context.signal.aborted) throw error;
    // An index that is still building or broken should not hide a definition the scan can find.
    return [];
  }
  // `Class.method` counts as a definition of `method`.
  return hits.filter((hit) => hit.symbol === name || hit.symbol?.endsWith(`.${name}`) === true);
}

async function scannedSections(name: string, context: ResolverContext): Promise<string[]> {
  const found = await scanForDefinitions(
    await realpath(context.projectRoot),
    name,
    {
      maxFiles: context.limit.symbolScanFiles,
      maxFileBytes: context.limit.symbolScanFileBytes,
      timeMs: context.limit.symbolScanMs,
      maxDefinitions: context.limit.symbolDefinitions,
      linesPerDefinition,
    },
    context.signal,
  );
  return found.map(
    (definition) =>
      `${definition.path}:${definition.line}\n${numberedLines(definition.lines, definition.line)}`,
  );
}

function indexedSection(hit: CodeSearchHit): string {
  const kind = hit.kind === undefined ? "" : ` (${hit.kind})`;
  return `${hit.path}:${hit.startLine}-${hit.endLine}${kind}\n${numberedLines(splitLines(hit.snippet), hit.startLine)}`;
}
