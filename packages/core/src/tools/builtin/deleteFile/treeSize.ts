import { lstat, readdir } from "node:fs/promises";
import path from "node:path";

export interface TreeSize {
  /** Everything that is not a directory: files, symbolic links, special files. */
  files: number;
  /** Directories below the measured one, itself excluded. */
  directories: number;
  /** Sizes of the regular files. */
  bytes: number;
}

/** Adds up what a directory holds, without following symbolic links (deleting one removes the link only). */
export async function measureTree(directory: string, signal: AbortSignal): Promise<TreeSize> {
  const total: TreeSize = { files: 0, directories: 0, bytes: 0 };
  const pending = [directory];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    signal.throwIfAborted();
    const entries = await readdir(current, { withFileTypes: true });
    for (const entry of entries) {
      const entryPath = path.join(current, entry.name);
      if (entry.isDirectory()) {
        total.directories++;
        pending.push(entryPath);
        continue;
      }
      total.files++;
      // A link's own size is the length of its target's name, not data that goes away.
      if (entry.isFile()) total.bytes += (await lstat(entryPath)).size;
    }
  }
  return total;
}
