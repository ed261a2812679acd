import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";

export type EntryKind = "directory" | "file" | "symlink" | "other";

export interface TreeEntry {
  name: string;
  kind: EntryKind;
  absolutePath: string;
  /** Position in breadth-first order: what fits under the entry cap is decided by it. */
  order: number;
  /** Entries of a directory that was read; empty for one beyond the depth. */
  children: TreeEntry[];
  /** Why a directory's entries could not be read. */
  readError?: string;
}

export interface EntryCandidate {
  absolutePath: string;
  /** Relative to the listed directory, `/` separated. */
  relativePath: string;
  isDirectory: boolean;
}

export interface WalkOptions {
  /** 1 lists the directory's own entries only. */
  maxDepth: number;
  /** Directories stop being read once this many entries are known, so the total is then a lower bound. */
  maxEntries: number;
  isExcluded(candidate: EntryCandidate): Promise<boolean>;
  signal: AbortSignal;
}

export interface DirectoryTree {
  entries: TreeEntry[];
  /** Entries found, excluded ones apart. */
  total: number;
  /** Entries left out by `isExcluded`. */
  excluded: number;
  /** False when `maxEntries` stopped the walk before every directory within the depth was read. */
  complete: boolean;
}

interface PendingDirectory {
  absolutePath: string;
  relativePath: string;
  /** Undefined for the listed directory itself, whose read errors are the caller's to report. */
  entry: TreeEntry | undefined;
  children: TreeEntry[];
}

/**
 * Reads a directory tree level by level without following symbolic links. Breadth first, so when
 * the tree is too big to show, what is shown is every level near the top rather than one deep
 * corner. Within a directory: directories first, then the rest, each by name.
 */
export async function walkDirectoryTree(basePath: string, options: WalkOptions): Promise<DirectoryTree> {
  const entries: TreeEntry[] = [];
  let level: PendingDirectory[] = [
    { absolutePath: basePath, relativePath: "", entry: undefined, children: entries },
  ];
  let order = 0;
  let excluded = 0;
  for (let depth = 1; depth <= options.maxDepth && level.length > 0; depth++) {
    const nextLevel: PendingDirectory[] = [];
    for (const directory of level) {
      options.signal.throwIfAborted();
      if (order >= options.maxEntries) return { entries, total: order, excluded, complete: false };
      const read = await readDirectory(directory, options);
      if (read.error !== undefined) {
        if (directory.entry === undefined) throw read.error;
        directory.entry.readError = errorSummary(read.error);
        continue;
      }
      excluded += read.excluded;
      for (const child of read.children) {
        const entry: TreeEntry = { ...child, order: order++, children: [] };
        directory.children.push(entry);
        if (entry.kind !== "directory") continue;
        nextLevel.push({
          absolutePath: entry.absolutePath,
          relativePath: joinRelative(directory.relativePath, entry.name),
          entry,
          children: entry.children,
        });
      }
    }
    level = nextLevel;
  }
  return { entries, total: order, excluded, complete: true };
}

type ReadDirectoryResult =
  | { error: undefined; children: Omit<TreeEntry, "order" | "children">[]; excluded: number }
  | { error: Error; children?: undefined; excluded?: undefined };

async function readDirectory(
  directory: PendingDirectory,
  options: WalkOptions,
): Promise<ReadDirectoryResult> {
  let dirents: Dirent[];
  try {
    dirents = await readdir(directory.absolutePath, { withFileTypes: true });
  } catch (error) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }
  const candidates = dirents.map((dirent) => ({
    name: dirent.name,
    kind: kindOf(dirent),
    absolutePath: path.join(directory.absolutePath, dirent.name),
  }));
  const exclusions = await Promise.all(
    candidates.map((candidate) =>
      options.isExcluded({
        absolutePath: candidate.absolutePath,
        relativePath: joinRelative(directory.relativePath, candidate.name),
        isDirectory: candidate.kind === "directory",
      }),
    ),
  );
  const children = candidates.filter((_, index) => !exclusions[index]).sort(compareEntries);
  return { error: undefined, children, excluded: candidates.length - children.length };
}

function kindOf(dirent: Dirent): EntryKind {
  if (dirent.isSymbolicLink()) return "symlink";
  if (dirent.isDirectory()) return "directory";
  if (dirent.isFile()) return "file";
  return "other";
}

function compareEntries(a: { name: string; kind: EntryKind }, b: { name: string; kind: EntryKind }): number {
  const aIsDirectory = a.kind === "directory";
  if (aIsDirectory !== (b.kind === "directory")) return aIsDirectory ? -1 : 1;
  if (a.name === b.name) return 0;
  return a.name < b.name ? -1 : 1;
}

function joinRelative(directory: string, name: string): string {
  return directory === "" ? name : `${directory}/${name}`;
}

function errorSummary(error: Error): string {
  const code = "code" in error && typeof error.code === "string" ? error.code : undefined;
  return code ?? error.message;
}
