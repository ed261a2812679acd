import path from "node:path";
import { errorInfo } from "@lathe/protocol";
import ignore from "ignore";
import { z } from "zod";
import { assetUrl } from "../../../assetPath.js";
import {
  type DirectoryTree,
  type EntryCandidate,
  walkDirectoryTree,
} from "../../../fileSystem/directoryTree.js";
import { renderTree } from "../../../fileSystem/directoryTreeListing.js";
import { statIfExists } from "../../../fileSystem/statIfExists.js";
import { isWithin, resolveProjectPath } from "../../../policy/pathGuard.js";
import { builtinToolSchema } from "../../inputSchemas.js";
import { missingFileError } from "../../missingFile.js";
import { ProjectIgnore } from "../../projectIgnore/projectIgnore.js";
import { defineTool, type ToolContext, type ToolResult } from "../../tool.js";
import { toolPrompt } from "../../toolPrompt.js";

const defaultDepth = 2;
const maxShownEntries = 500;
/** Past this many entries the walk stops counting; the note then gives a lower bound. */
const maxCountedEntries = 10_000;

const listDirectorySchema = builtinToolSchema("list_directory", () =>
  z.object({
    path: z.string().min(1).optional(),
    depth: z.number().int().min(1).max(5).optional().describe(`Levels to show (default ${defaultDepth}).`),
    ignore: z
      .array(z.string().min(1).max(1000))
      .max(100)
      .optional()
      .describe("Extra gitignore-style patterns to hide."),
  }),
);

type ListDirectoryArgs = z.infer<typeof listDirectorySchema>;

export const listDirectoryTool = defineTool({
  name: "list_directory",
  description: toolPrompt(assetUrl("tools/builtin/listDirectory/listDirectory.md")),
  schema: listDirectorySchema,
  kind: "read",
  risk: () => "safe",
  timeoutMs: 60_000,
  truncation: "head",
  execute: listDirectory,
});

async function listDirectory(args: ListDirectoryArgs, ctx: ToolContext): Promise<ToolResult> {
  const guarded = await resolveProjectPath(ctx.projectRoot, args.path ?? ".");
  if (!guarded.ok) return { ok: false, error: guarded.error };
  const { path: absPath, relative: displayPath } = guarded;

  const stats = await statIfExists(absPath);
  if (stats === undefined) {
    return {
      ok: false,
      error: await missingFileError(absPath, displayPath),
    };
  }
  if (!stats.isDirectory()) {
    const message = `${displayPath} is a file, not a directory. Use read_file to read it.`;
    return { ok: false, error: errorInfo("E_INVALID_ARGS", message) };
  }

  const projectIgnore = new ProjectIgnore(ctx.projectRoot);
  const baseRelative = toPosix(displayPath);
  // Naming an ignored directory is asking to see inside it; its contents are then shown unfiltered.
  const baseIgnored = await projectIgnore.isIgnored(baseRelative, true);
  const extraIgnore = ignore().add(args.ignore ?? []);
  const isExcluded = async (candidate: EntryCandidate) => {
    const testedPath = candidate.isDirectory ? `${candidate.relativePath}/` : candidate.relativePath;
    if (extraIgnore.ignores(testedPath)) return true;
    if (baseIgnored) return false;
    const fromRoot = toPosix(path.relative(ctx.projectRoot, candidate.absolutePath));
    return projectIgnore.isIgnored(fromRoot, candidate.isDirectory);
  };

  const depth = args.depth ?? defaultDepth;
  let tree: DirectoryTree;
  try {
    tree = await walkDirectoryTree(absPath, {
      maxDepth: depth,
      maxEntries: maxCountedEntries,
      isExcluded,
      signal: ctx.signal,
    });
  } catch (error) {
    if (ctx.signal.aborted)
      return { ok: false, error: errorInfo("E_CANCELLED", "list_directory was cancelled.") };
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, error: errorInfo("E_TOOL_EXECUTION", `Cannot read ${displayPath}: ${reason}`) };
  }
  const header = displayPath === "." ? "./" : `${baseRelative}/`;
  const notes: string[] = [];
  if (baseIgnored) {
    notes.push(
      `[${baseRelative} is ignored by the project's ignore rules; it is listed because you named it.]`,
    );
  }
  if (tree.total === 0)
    notes.unshift(tree.excluded > 0 ? "  (no entries besides ignored ones)" : "  (empty)");
  if (tree.total > maxShownEntries || !tree.complete) {
    const total = tree.complete
      ? tree.total.toLocaleString("en-US")
      : `more than ${maxCountedEntries.toLocaleString("en-US")}`;
    notes.push(
      `[Showing ${maxShownEntries} of ${total} entries, level by level to depth ${depth}. ` +
        "To see the rest, list a subdirectory with path, lower depth, or hide entries with ignore patterns.]",
    );
  }
  if (tree.excluded > 0 && tree.total > 0) {
    notes.push(
      `[${tree.excluded.toLocaleString("en-US")} ignored ${tree.excluded === 1 ? "entry" : "entries"} not shown ` +
        "(.gitignore, .latheignore, built-in ignores such as node_modules and .git, and your ignore patterns).]",
    );
  }
  const rendered = await renderTree(header, tree.entries, maxShownEntries, (realPath) =>
    isWithin(ctx.projectRoot, realPath),
  );
  return {
    ok: true,
    output: [rendered, ...notes].join("\n"),
    metadata: {
      path: displayPath,
      depth,
      entries: tree.total,
      shown: Math.min(tree.total, maxShownEntries),
      complete: tree.complete,
      ignored: tree.excluded,
    },
  };
}

function toPosix(relativePath: string): string {
  return relativePath.split(path.sep).join("/");
}
