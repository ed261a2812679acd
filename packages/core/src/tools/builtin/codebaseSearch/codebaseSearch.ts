import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { z } from "zod";
import { assetUrl } from "../../../assetPath.js";
import { statIfExists } from "../../../fileSystem/statIfExists.js";
import { resolveProjectPath } from "../../../policy/pathGuard.js";
import { builtinToolSchema } from "../../inputSchemas.js";
import { missingFileError } from "../../missingFile.js";
import { defineTool, type ToolContext, type ToolResult } from "../../tool.js";
import { toolPrompt } from "../../toolPrompt.js";
import type { CodeSearchHit } from "../../toolServices.js";
import { formatHits } from "./formatHits.js";

const defaultLimit = 10;
const maxLimit = 30;

const codebaseSearchSchema = builtinToolSchema("codebase_search", () =>
  z.object({
    query: z.string().min(1).max(1000),
    target_directories: z.array(z.string().min(1)).min(1).max(20).optional(),
    limit: z.number().int().min(1).max(maxLimit).optional(),
  }),
);

type CodebaseSearchArgs = z.infer<typeof codebaseSearchSchema>;

export const codebaseSearchTool = defineTool({
  name: "codebase_search",
  description: toolPrompt(assetUrl("tools/builtin/codebaseSearch/codebaseSearch.md")),
  schema: codebaseSearchSchema,
  kind: "search",
  risk: () => "safe",
  timeoutMs: 60_000,
  truncation: "head",
  execute: codebaseSearch,
});

async function codebaseSearch(args: CodebaseSearchArgs, ctx: ToolContext): Promise<ToolResult> {
  if (ctx.codeSearch === undefined) {
    return {
      ok: false,
      error: errorInfo("E_TOOL_EXECUTION", "the code index is not available; use search_files"),
    };
  }
  const scope =
    args.target_directories === undefined
      ? undefined
      : await resolveScope(args.target_directories, ctx.projectRoot);
  if (scope !== undefined && !scope.ok) return { ok: false, error: scope.error };
  const options = {
    limit: args.limit ?? defaultLimit,
    paths: scope?.paths,
  };
  let hits: CodeSearchHit[];
  try {
    hits = await ctx.codeSearch.search(args.query, options, ctx.signal);
  } catch (error) {
    if (ctx.signal.aborted)
      return { ok: false, error: errorInfo("E_CANCELLED", "codebase_search was cancelled.") };
    const message = `The code search failed: ${error instanceof Error ? error.message : String(error)}`;
    return { ok: false, error: errorInfo("E_TOOL_EXECUTION", message) };
  }
  if (hits.length === 0) {
    const where = scope === undefined ? "" : ` in ${scope.paths.join(", ")}`;
    return {
      ok: true,
      output: `No indexed code matches ${JSON.stringify(args.query)}${where}. Try other words, or search_files for exact text.`,
      metadata: { hits: 0 },
    };
  }
  return { ok: true, output: formatHits(hits), metadata: { hits: hits.length } };
}

/** The paths through the path guard, as project-relative paths with forward slashes; each must exist. */
async function resolveScope(
  paths: readonly string[],
  projectRoot: string,
): Promise<{ ok: true; paths: string[] } | { ok: false; error: LatheErrorInfo }> {
  const resolved: string[] = [];
  for (const requested of paths) {
    const guarded = await resolveProjectPath(projectRoot, requested);
    if (!guarded.ok) return guarded;
    if ((await statIfExists(guarded.path)) === undefined) {
      return { ok: false, error: await missingFileError(guarded.path, guarded.relative) };
    }
    resolved.push(guarded.relative.split(/[\\/]/).join("/"));
  }
  return { ok: true, paths: resolved };
}
