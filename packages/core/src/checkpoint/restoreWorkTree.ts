import { lstat, rmdir, unlink } from "node:fs/promises";
import path from "node:path";
import { type CheckpointOutcome, succeed } from "./checkpointOutcome.js";
import { literalPathspec, pathspecInput } from "./pathspecs.js";
import type { ShadowGit } from "./shadowGit.js";
import { gitlinkMode, treeChanges } from "./treeChanges.js";

export interface RestoredFiles {
  written: string[];
  removed: string[];
}

/**
 * Makes the work tree match `target`, given `current`: a tree captured just now. Only paths the
 * shadow tracks are touched. A path missing from `current` yet present on disk is ignored or over
 * the size limit, so it stays as it is even if the checkpoint holds an older version; nested
 * repositories (gitlinks) are never written or deleted either.
 */
export async function restoreWorkTree(
  git: ShadowGit,
  target: string,
  current: string,
): Promise<CheckpointOutcome<RestoredFiles>> {
  const changes = await treeChanges(git, target, current);
  if (!changes.ok) return changes;
  const tracked = changes.value.filter(
    (change) => change.fromMode !== gitlinkMode && change.toMode !== gitlinkMode,
  );
  const removed = tracked.filter((change) => change.status === "A").map((change) => change.path);
  for (const file of removed) await removeFile(path.join(git.workTree, file));
  // Before anything is written: a file that was a directory (or the reverse) needs the old one gone.
  await removeEmptiedDirectories(git.workTree, removed);

  const written: string[] = [];
  for (const change of tracked) {
    if (change.status === "A") continue;
    if (change.status === "D" && (await exists(path.join(git.workTree, change.path)))) continue;
    written.push(change.path);
  }
  if (written.length > 0) {
    const checkedOut = await git.run(["checkout", target, "--pathspec-from-file=-", "--pathspec-file-nul"], {
      input: pathspecInput(written.map(literalPathspec)),
    });
    if (!checkedOut.ok) return checkedOut;
  }
  return succeed({ written, removed });
}

async function exists(file: string): Promise<boolean> {
  try {
    await lstat(file);
    return true;
  } catch {
    return false;
  }
}

async function removeFile(file: string): Promise<void> {
  try {
    await unlink(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

/** Removes the directories that held removed files, deepest first, when nothing else is left in them. */
async function removeEmptiedDirectories(root: string, removed: readonly string[]): Promise<void> {
  const directories = new Set<string>();
  for (const file of removed) {
    for (let dir = path.dirname(file); dir !== "." && dir !== path.sep; dir = path.dirname(dir)) {
      directories.add(dir);
    }
  }
  const deepestFirst = [...directories].sort((a, b) => depth(b) - depth(a));
  for (const dir of deepestFirst) {
    try {
      await rmdir(path.join(root, dir));
    } catch {
      // Not empty (ignored files, untracked nested content) or already gone: it stays as it is.
    }
  }
}

function depth(relative: string): number {
  return relative.split("/").length;
}
