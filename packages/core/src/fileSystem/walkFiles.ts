import type { Dirent } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import path from "node:path";
import { alwaysIgnoredTest } from "./alwaysIgnored.js";
import {
  ancestorChain,
  chainIgnores,
  childChain,
  type IgnoreChain,
  readDirectoryIgnores,
  toPosix,
} from "./gitignoreChain.js";

export interface WalkedFile {
  absolute: string;
  /** Relative to the project root, with "/" separators. */
  relative: string;
}

/** Directories read at once; enough to hide filesystem latency without flooding it. */
const readConcurrency = 16;

/**
 * The files ripgrep would search under `root`: hidden ones included, the `alwaysIgnored`
 * patterns and .gitignore rules applied, symbolic links not followed (one could lead out of the
 * project). The root itself is searched even when it is ignored, as a directory named explicitly is.
 */
export async function walkFiles(
  root: string,
  projectRoot: string,
  alwaysIgnored: readonly string[],
  signal: AbortSignal,
): Promise<WalkedFile[]> {
  const isAlwaysIgnored = alwaysIgnoredTest(alwaysIgnored);
  const files: WalkedFile[] = [];
  const pending: Array<{ directory: string; chain: IgnoreChain }> = [
    { directory: root, chain: await ancestorChain(root) },
  ];
  const running = new Set<Promise<void>>();
  const visit = async (directory: string, chain: IgnoreChain) => {
    const entries = await readEntries(directory);
    const holdsGit = entries.some((entry) => entry.name === ".git");
    const inner = childChain(chain, await readDirectoryIgnores(directory, holdsGit));
    for (const entry of entries) {
      const absolute = path.join(directory, entry.name);
      const kind = await entryKind(entry, absolute);
      if (kind === undefined) continue;
      const relative = toPosix(path.relative(projectRoot, absolute));
      if (isAlwaysIgnored(relative, kind === "directory")) continue;
      if (chainIgnores(inner, absolute, kind === "directory")) continue;
      if (kind === "directory") pending.push({ directory: absolute, chain: inner });
      else files.push({ absolute, relative });
    }
  };
  while ((pending.length > 0 || running.size > 0) && !signal.aborted) {
    while (pending.length > 0 && running.size < readConcurrency) {
      const next = pending.pop();
      if (next === undefined) break;
      const task = visit(next.directory, next.chain).finally(() => running.delete(task));
      running.add(task);
    }
    if (running.size > 0) await Promise.race(running);
  }
  return files;
}

async function readEntries(directory: string): Promise<Dirent[]> {
  try {
    return await readdir(directory, { withFileTypes: true });
  } catch {
    // Unreadable directories are skipped, as ripgrep skips them.
    return [];
  }
}

/** Regular files and directories only; links and special files are not searched. */
async function entryKind(entry: Dirent, absolute: string): Promise<"file" | "directory" | undefined> {
  if (entry.isFile()) return "file";
  if (entry.isDirectory()) return "directory";
  if (entry.isSymbolicLink() || entry.isFIFO() || entry.isSocket()) return undefined;
  if (entry.isBlockDevice() || entry.isCharacterDevice()) return undefined;
  // Some filesystems do not report the type while listing.
  try {
    const stats = await lstat(absolute);
    if (stats.isFile()) return "file";
    return stats.isDirectory() ? "directory" : undefined;
  } catch {
    return undefined;
  }
}
