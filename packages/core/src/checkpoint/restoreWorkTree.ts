import { forEachBlob } from "./blobContents.js";
import { type CheckpointOutcome, succeed } from "./checkpointOutcome.js";
import {
  type EntryKind,
  entryExists,
  entryKind,
  parentsAreDirectories,
  removeEmptiedDirectories,
  removeEntry,
  replaceEntry,
} from "./projectEntries.js";
import type { ShadowGit } from "./shadowGit.js";
import { gitlinkMode, treeChanges } from "./treeChanges.js";

export interface RestoredFiles {
  written: string[];
  removed: string[];
  /**
   * Paths left as they are because a directory on their way is a symbolic link (or not a
   * directory at all): writing or deleting through it could reach outside the project.
   */
  refused: string[];
}

/**
 * Makes the work tree match `target`, given `current`: a tree captured just now. Only paths the
 * shadow tracks are touched. A path missing from `current` yet present on disk is ignored or over
 * the size limit, so it stays as it is even if the checkpoint holds an older version; nested
 * repositories (gitlinks) are never written or deleted either. Each file is replaced whole
 * (temp file, then rename), so a restore killed half-way leaves no half-written file, and running
 * it again finishes it.
 */
export async function restoreWorkTree(
  git: ShadowGit,
  target: string,
  current: string,
): Promise<CheckpointOutcome<RestoredFiles>> {
  const root = git.workTree;
  const changes = await treeChanges(git, target, current);
  if (!changes.ok) return changes;
  const tracked = changes.value.filter(
    (change) => change.fromMode !== gitlinkMode && change.toMode !== gitlinkMode,
  );
  const refused: string[] = [];
  const removed: string[] = [];
  for (const change of tracked) {
    if (change.status !== "A") continue;
    if (!(await parentsAreDirectories(root, change.path))) {
      refused.push(change.path);
      continue;
    }
    await removeEntry(root, change.path);
    removed.push(change.path);
  }
  // Before anything is written: a file that was a directory (or the reverse) needs the old one gone.
  await removeEmptiedDirectories(root, removed);

  const writes: { path: string; id: string; kind: EntryKind }[] = [];
  // Directories found real before writing; removals are done, so they stay real while writing.
  const directories = new Set<string>();
  for (const change of tracked) {
    const kind = entryKind(change.fromMode);
    if (change.status === "A" || kind === undefined) continue;
    if (!(await parentsAreDirectories(root, change.path, directories))) {
      refused.push(change.path);
      continue;
    }
    if (change.status === "D" && (await entryExists(root, change.path))) continue;
    writes.push({ path: change.path, id: change.fromId, kind });
  }
  const written = await forEachBlob(git, writes, (write, content) =>
    replaceEntry(root, write.path, write.kind, content, directories),
  );
  if (!written.ok) return written;
  return succeed({ written: writes.map((write) => write.path), removed, refused: refused.sort() });
}
