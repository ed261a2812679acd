import type { Dirent } from "node:fs";
import { readdir, unlink } from "node:fs/promises";
import path from "node:path";

/** Lathe names its own files in the git dir `lathe-*` (its lock among them): never git's. */
const latheFilePrefix = "lathe-";
/** Loose object directories (`objects/ab`) hold no lock file and can hold very many entries. */
const looseObjectDir = /^objects\/[0-9a-f]{2}$/;

/**
 * Removes git's `*.lock` files (index.lock, HEAD.lock, refs/**.lock, packed-refs.lock…) from a
 * shadow git dir, and only from there: the caller holds Lathe's lock, so no git of ours is running.
 * Symbolic links are neither followed nor removed. Returns the removed paths, relative, sorted.
 */
export async function removeGitLockFiles(gitDir: string): Promise<string[]> {
  const removed: string[] = [];
  await sweep(gitDir, "", removed);
  return removed.sort();
}

async function sweep(gitDir: string, relative: string, removed: string[]): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await readdir(path.join(gitDir, relative), { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const entryPath = relative === "" ? entry.name : `${relative}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!looseObjectDir.test(entryPath)) await sweep(gitDir, entryPath, removed);
    } else if (entry.isFile() && entry.name.endsWith(".lock") && !entry.name.startsWith(latheFilePrefix)) {
      try {
        await unlink(path.join(gitDir, entryPath));
        removed.push(entryPath);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      }
    }
  }
}
