import { randomBytes } from "node:crypto";
import type { Dirent } from "node:fs";
import { lstat, mkdir, open, readdir, rename, rmdir, symlink, unlink } from "node:fs/promises";
import path from "node:path";

/**
 * File operations of a restore inside the project, none of which follows a symbolic link: a
 * directory on the way that is a link (to anywhere) makes the path refused, since writing or
 * deleting through it could reach outside the project.
 */

export type EntryKind = "file" | "executable" | "symlink";

const gitModes: Record<string, EntryKind> = { "100644": "file", "100755": "executable", "120000": "symlink" };

/** The kind of entry a git tree mode stands for; undefined for gitlinks and trees. */
export function entryKind(mode: string): EntryKind | undefined {
  return gitModes[mode];
}

/**
 * True when every directory between `root` and the entry is a real directory (or missing).
 * `known` holds directories (relative) already found real in this pass: a restore of many files
 * in one directory checks it once.
 */
export async function parentsAreDirectories(
  root: string,
  relative: string,
  known: Set<string> = new Set(),
): Promise<boolean> {
  let current = "";
  for (const part of path.dirname(relative).split("/")) {
    if (part === "." || part === "") continue;
    current = current === "" ? part : `${current}/${part}`;
    if (known.has(current)) continue;
    const stats = await lstatIfExists(path.join(root, current));
    if (stats === undefined) return true;
    if (!stats.isDirectory()) return false;
    known.add(current);
  }
  return true;
}

/** True when something (a file, a link, a directory) is at the entry itself, links not followed. */
export async function entryExists(root: string, relative: string): Promise<boolean> {
  return (await lstatIfExists(path.join(root, relative))) !== undefined;
}

/**
 * Replaces the entry through a temp file in its directory (named like the project's atomic
 * writes) renamed over it, so a kill leaves the old entry or the new one, never a part. Missing
 * directories are created, unless `known` (relative paths) says the directory is there; the
 * caller has checked that none on the way is a link.
 */
export async function replaceEntry(
  root: string,
  relative: string,
  kind: EntryKind,
  content: Buffer,
  known: Set<string> = new Set(),
): Promise<void> {
  const target = path.join(root, relative);
  const directory = path.dirname(target);
  const relativeDirectory = path.dirname(relative);
  if (relativeDirectory !== "." && !known.has(relativeDirectory)) {
    await mkdir(directory, { recursive: true });
    known.add(relativeDirectory);
  }
  const tempPath = path.join(directory, `.${path.basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    if (kind === "symlink") {
      await symlink(content.toString("utf8"), tempPath);
    } else {
      // As git checks out: 0777 or 0666, less the umask. "wx" refuses a link planted at the temp name.
      const handle = await open(tempPath, "wx", kind === "executable" ? 0o777 : 0o666);
      try {
        await handle.writeFile(content);
      } finally {
        await handle.close();
      }
    }
    await rename(tempPath, target);
  } catch (error) {
    await unlink(tempPath).catch(() => undefined);
    throw error;
  }
}

export async function removeEntry(root: string, relative: string): Promise<void> {
  try {
    await unlink(path.join(root, relative));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

/** Removes the directories that held removed files, deepest first, when nothing else is left in them. */
export async function removeEmptiedDirectories(root: string, removed: readonly string[]): Promise<void> {
  const directories = new Set<string>();
  for (const file of removed) {
    for (let dir = path.dirname(file); dir !== "." && dir !== "/"; dir = path.dirname(dir)) {
      directories.add(dir);
    }
  }
  const deepestFirst = [...directories].sort((a, b) => depth(b) - depth(a));
  for (const dir of deepestFirst) {
    if (!(await parentsAreDirectories(root, dir))) continue;
    try {
      await rmdir(path.join(root, dir));
    } catch {
      // Not empty (ignored files, untracked nested content), a link, or already gone: it stays.
    }
  }
}

/**
 * Removes the temp files a killed restore left next to `files` (`.name.<12 hex>.tmp`), and only
 * those: a file of the user's own that merely ends in `.tmp` stays. Returns the removed paths.
 */
export async function removeLeftoverTempFiles(root: string, files: readonly string[]): Promise<string[]> {
  const namesByDirectory = new Map<string, Set<string>>();
  for (const file of files) {
    const dir = path.dirname(file);
    const names = namesByDirectory.get(dir) ?? new Set<string>();
    names.add(path.basename(file));
    namesByDirectory.set(dir, names);
  }
  const removed: string[] = [];
  for (const [dir, names] of namesByDirectory) {
    if (!(await parentsAreDirectories(root, path.join(dir, "entry")))) continue;
    let entries: Dirent[];
    try {
      entries = await readdir(path.join(root, dir), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const match = /^\.(.+)\.[0-9a-f]{12}\.tmp$/s.exec(entry.name);
      if (match === null || !names.has(match[1] ?? "") || entry.isDirectory()) continue;
      const relative = dir === "." ? entry.name : `${dir}/${entry.name}`;
      await removeEntry(root, relative);
      removed.push(relative);
    }
  }
  return removed.sort();
}

async function lstatIfExists(file: string) {
  try {
    return await lstat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

function depth(relative: string): number {
  return relative.split("/").length;
}
