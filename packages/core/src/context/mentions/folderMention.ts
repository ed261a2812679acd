import { realpath } from "node:fs/promises";
import path from "node:path";
import { errorInfo } from "@lathe/protocol";
import { type EntryCandidate, walkDirectoryTree } from "../../fileSystem/directoryTree.js";
import { renderTree } from "../../fileSystem/directoryTreeListing.js";
import { statIfExists } from "../../fileSystem/statIfExists.js";
import { isWithin, resolveProjectPath } from "../../policy/pathGuard.js";
import { missingFileError } from "../../tools/missingFile.js";
import { ProjectIgnore } from "../../tools/projectIgnore/projectIgnore.js";
import { toPosix } from "../dynamic/projectFile.js";
import type { Mention } from "./mention.js";
import type { MentionOutcome, ResolverContext } from "./mentionSources.js";

/** Entries counted past what is shown, so the note can say how many were left out. */
const countedBeyondShown = 5;

/**
 * `@folder dir`: a tree of the directory, folderDepth levels, at most folderEntries entries, as
 * list_directory draws it. Ignored entries (.gitignore, .latheignore, node_modules…) are left out,
 * unless the named directory is itself ignored: naming it is asking to see inside.
 */
export async function resolveFolder(mention: Mention, context: ResolverContext): Promise<MentionOutcome> {
  const guarded = await resolveProjectPath(context.projectRoot, mention.argument || ".");
  if (!guarded.ok) return { type: "error", error: guarded.error };
  const relative = toPosix(guarded.relative);
  const stats = await statIfExists(guarded.path);
  if (stats === undefined) {
    if (mention.bare) return { type: "ignored" };
    return { type: "error", error: await missingFileError(guarded.path, relative) };
  }
  if (!stats.isDirectory()) {
    const message = `${relative} is a file, not a folder; mention it with @file.`;
    return { type: "error", error: errorInfo("E_INVALID_ARGS", message) };
  }

  const root = await realpath(context.projectRoot);
  const ignore = new ProjectIgnore(root);
  const baseIgnored = await ignore.isIgnored(relative, true);
  const isExcluded = async (candidate: EntryCandidate) =>
    !baseIgnored &&
    ignore.isIgnored(toPosix(path.relative(root, candidate.absolutePath)), candidate.isDirectory);
  const { folderDepth, folderEntries } = context.limit;
  const tree = await walkDirectoryTree(guarded.path, {
    maxDepth: folderDepth,
    maxEntries: folderEntries + countedBeyondShown,
    isExcluded,
    signal: context.signal,
  });

  const header = relative === "." ? "./" : `${relative}/`;
  const lines = [
    await renderTree(header, tree.entries, folderEntries, (realPath) => isWithin(root, realPath)),
  ];
  if (tree.total === 0) lines.push("  (empty)");
  if (tree.total > folderEntries || !tree.complete) {
    lines.push(`[Only the first ${folderEntries} entries are shown; mention a subfolder to see more.]`);
  }
  if (tree.excluded > 0) lines.push(`[${tree.excluded} ignored entries are not shown.]`);
  return { type: "attachment", title: header, text: lines.join("\n") };
}
