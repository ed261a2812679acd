import path from "node:path";
import { errorInfo } from "@lathe/protocol";
import { glob } from "tinyglobby";
import { z } from "zod";
import { assetUrl } from "../../../assetPath.js";
import { statIfExists } from "../../../fileSystem/statIfExists.js";
import { isWithin, resolveProjectPath } from "../../../policy/pathGuard.js";
import { builtinToolSchema } from "../../inputSchemas.js";
import { missingFileError } from "../../missingFile.js";
import { builtinCrawlExclusions } from "../../projectIgnore/builtinIgnores.js";
import { ProjectIgnore } from "../../projectIgnore/projectIgnore.js";
import { defineTool, type ToolContext, type ToolResult } from "../../tool.js";
import { toolPrompt } from "../../toolPrompt.js";
import { splitGlobPattern } from "./globPattern.js";
import { sortRecentFirst } from "./recentFirst.js";

const maxResults = 100;

const globSearchSchema = builtinToolSchema("glob_search", () =>
  z.object({
    pattern: z.string().min(1).max(1000),
    path: z.string().min(1).optional(),
  }),
);

type GlobSearchArgs = z.infer<typeof globSearchSchema>;

export const globSearchTool = defineTool({
  name: "glob_search",
  description: toolPrompt(assetUrl("tools/builtin/globSearch/globSearch.md")),
  schema: globSearchSchema,
  kind: "search",
  risk: () => "safe",
  timeoutMs: 60_000,
  truncation: "head",
  execute: globSearch,
});

async function globSearch(args: GlobSearchArgs, ctx: ToolContext): Promise<ToolResult> {
  const split = splitGlobPattern(args.pattern);
  if (!split.ok) return { ok: false, error: split.error };
  const searchRoot = await resolveProjectPath(ctx.projectRoot, args.path ?? ".");
  if (!searchRoot.ok) return { ok: false, error: searchRoot.error };

  const searchRootStats = await statIfExists(searchRoot.path);
  if (searchRootStats === undefined) {
    return {
      ok: false,
      error: await missingFileError(searchRoot.path, searchRoot.relative),
    };
  }
  if (!searchRootStats.isDirectory()) {
    const message = `${searchRoot.relative} is a file; path must be a directory to search in.`;
    return { ok: false, error: errorInfo("E_INVALID_ARGS", message) };
  }
  const crawlRoot = await resolveProjectPath(
    ctx.projectRoot,
    path.resolve(searchRoot.path, split.staticBase),
  );
  if (!crawlRoot.ok) return { ok: false, error: crawlRoot.error };

  const projectIgnore = new ProjectIgnore(ctx.projectRoot);
  // Naming an ignored directory is asking to search inside it; its contents are then not filtered.
  const crawlRootIgnored = await projectIgnore.isIgnored(toPosix(crawlRoot.relative), true);
  const crawlRootStats = await statIfExists(crawlRoot.path);
  const found = crawlRootStats?.isDirectory()
    ? await glob(split.glob, {
        cwd: crawlRoot.path,
        dot: true,
        followSymbolicLinks: false,
        onlyFiles: true,
        ignore: crawlRootIgnored ? [] : builtinCrawlExclusions,
        signal: ctx.signal,
      })
    : [];
  if (ctx.signal.aborted) return { ok: false, error: errorInfo("E_CANCELLED", "glob_search was cancelled.") };

  const candidates = found
    .map((match) => path.join(crawlRoot.path, match))
    .filter((absolutePath) => isWithin(crawlRoot.path, absolutePath));
  const visible = crawlRootIgnored
    ? candidates
    : await withoutIgnored(candidates, projectIgnore, ctx.projectRoot);
  const sorted = await sortRecentFirst(visible);
  const displayRoot = searchRoot.relative === "." ? "the project" : searchRoot.relative;
  if (sorted.length === 0) {
    const hint = crawlRootIgnored
      ? ""
      : " Ignored files (.gitignore, .latheignore, node_modules, .git, build output) are not searched; pass an ignored directory as path to search inside it.";
    return {
      ok: true,
      output: `No files match ${args.pattern} in ${displayRoot}.${hint}`,
      metadata: { total: 0, shown: 0 },
    };
  }

  const shown = sorted
    .slice(0, maxResults)
    .map((absolutePath) => toPosix(path.relative(ctx.projectRoot, absolutePath)));
  const lines = [...shown];
  if (sorted.length > maxResults) {
    lines.push(
      `[Showing the ${maxResults} most recently modified of ${sorted.length.toLocaleString("en-US")} matching files. ` +
        "Narrow the pattern or path to see the others.]",
    );
  }
  return { ok: true, output: lines.join("\n"), metadata: { total: sorted.length, shown: shown.length } };
}

async function withoutIgnored(
  absolutePaths: readonly string[],
  projectIgnore: ProjectIgnore,
  projectRoot: string,
): Promise<string[]> {
  const ignored = await Promise.all(
    absolutePaths.map((absolutePath) =>
      projectIgnore.isIgnored(toPosix(path.relative(projectRoot, absolutePath)), false),
    ),
  );
  return absolutePaths.filter((_, index) => !ignored[index]);
}

function toPosix(relativePath: string): string {
  return relativePath.split(path.sep).join("/");
}
