import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { z } from "zod";
import { assetUrl } from "../../../assetPath.js";
import { executableOnPath } from "../../../fileSystem/executableOnPath.js";
import { statIfExists } from "../../../fileSystem/statIfExists.js";
import { resolveProjectPath } from "../../../policy/pathGuard.js";
import { builtinToolSchema } from "../../inputSchemas.js";
import { missingFileError } from "../../missingFile.js";
import { defineTool, type ToolContext, type ToolResult } from "../../tool.js";
import { toolPrompt } from "../../toolPrompt.js";
import { formatSearchResults } from "./formatResults.js";
import { globFilter } from "./globFilter.js";
import { searchWithJs } from "./jsEngine.js";
import { searchWithRipgrep } from "./ripgrepEngine.js";
import type { SearchQuery, SearchResult, SearchTarget } from "./searchTypes.js";

const matchLimit = 100;
const maxContextLines = 10;
const defaultSearchTimeoutMs = 30_000;

const searchFilesSchema = builtinToolSchema("search_files", () =>
  z.object({
    pattern: z.string(),
    path: z.string().min(1).optional(),
    glob: z.string().min(1).optional().describe('e.g. "*.{ts,tsx}"; with "/" the path must match.'),
    case_insensitive: z.boolean().optional(),
    context_lines: z.number().int().min(0).max(maxContextLines).optional(),
  }),
);

type SearchFilesArgs = z.infer<typeof searchFilesSchema>;

export type SearchEngineChoice = "auto" | "ripgrep" | "js";

export interface SearchFilesOptions {
  /** "auto" (the default) uses ripgrep when it is on PATH and the JavaScript engine otherwise. */
  engine?: SearchEngineChoice;
  /** ripgrep to use instead of the one found on PATH. */
  ripgrepPath?: string;
  /** How long a search may run before it stops and reports what it found. */
  searchTimeoutMs?: number;
}

/** search_files with a chosen engine; tests and benchmarks run both engines side by side. */
export function createSearchFilesTool(options: SearchFilesOptions = {}) {
  const searchTimeoutMs = options.searchTimeoutMs ?? defaultSearchTimeoutMs;
  return defineTool({
    name: "search_files",
    description: toolPrompt(assetUrl("tools/builtin/searchFiles/searchFiles.md")),
    schema: searchFilesSchema,
    kind: "search",
    risk: () => "safe",
    // Above the search's own limit, which stops it and keeps what it found.
    timeoutMs: searchTimeoutMs + 10_000,
    truncation: "head",
    execute: (args, ctx) => searchFiles(args, ctx, options, searchTimeoutMs),
  });
}

export const searchFilesTool = createSearchFilesTool();

async function searchFiles(
  args: SearchFilesArgs,
  ctx: ToolContext,
  options: SearchFilesOptions,
  searchTimeoutMs: number,
): Promise<ToolResult> {
  const target = await resolveTarget(args.path, ctx.projectRoot);
  if (!target.ok) return { ok: false, error: target.error };
  const query: SearchQuery = {
    projectRoot: ctx.projectRoot,
    target: target.target,
    pattern: args.pattern,
    caseInsensitive: args.case_insensitive ?? false,
    contextLines: args.context_lines ?? 0,
    matchLimit,
    signal: ctx.signal,
    timeoutMs: searchTimeoutMs,
  };
  if (args.glob !== undefined) query.includeFile = globFilter(args.glob, target.target.relative);

  const engine = await chooseEngine(options);
  if (engine === undefined) {
    return { ok: false, error: errorInfo("E_TOOL_EXECUTION", "ripgrep was requested but is not installed.") };
  }
  const result: SearchResult =
    engine.kind === "ripgrep" ? await searchWithRipgrep(query, engine.path) : await searchWithJs(query);
  if (!result.ok) return { ok: false, error: result.error };

  const { output, metadata } = formatSearchResults(result.outcome, {
    pattern: args.pattern,
    caseInsensitive: query.caseInsensitive,
    target: target.target.relative,
    glob: args.glob,
    contextLines: query.contextLines,
    matchLimit,
    limits: ctx.outputLimits,
    timeoutMs: searchTimeoutMs,
  });
  if (result.outcome.stopped === "cancelled") {
    return { ok: false, error: errorInfo("E_CANCELLED", "The search was cancelled."), output };
  }
  if (result.outcome.stopped === "timeout") {
    const message = `The search did not finish within ${searchTimeoutMs} ms; the results found so far are below.`;
    return { ok: false, error: errorInfo("E_TOOL_TIMEOUT", message), output };
  }
  return { ok: true, output, metadata: { ...metadata, engine: engine.kind } };
}

async function resolveTarget(
  requested: string | undefined,
  projectRoot: string,
): Promise<{ ok: true; target: SearchTarget } | { ok: false; error: LatheErrorInfo }> {
  const guarded = await resolveProjectPath(projectRoot, requested ?? ".");
  if (!guarded.ok) return guarded;
  const stats = await statIfExists(guarded.path);
  if (stats === undefined) {
    return {
      ok: false,
      error: await missingFileError(guarded.path, guarded.relative),
    };
  }
  return { ok: true, target: { absolute: guarded.path, relative: guarded.relative, isFile: stats.isFile() } };
}

async function chooseEngine(
  options: SearchFilesOptions,
): Promise<{ kind: "ripgrep"; path: string } | { kind: "js" } | undefined> {
  const choice = options.engine ?? "auto";
  if (choice === "js") return { kind: "js" };
  const ripgrep = options.ripgrepPath ?? (await executableOnPath("rg"));
  if (ripgrep !== undefined) return { kind: "ripgrep", path: ripgrep };
  return choice === "auto" ? { kind: "js" } : undefined;
}
