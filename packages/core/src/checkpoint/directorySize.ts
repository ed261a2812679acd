import type { Dirent } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import path from "node:path";

/** Total size in bytes of the files under `dir`; 0 when it does not exist. */
export async function directorySize(dir: string): Promise<number> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { recursive: true, withFileTypes: true });
  } catch {
    return 0;
  }
  const sizes = await Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map((entry) =>
        lstat(path.join(entry.parentPath, entry.name)).then(
          (stats) => stats.size,
          // Removed while counting (a lock file, a pack being replaced): it no longer takes space.
          () => 0,
        ),
      ),
  );
  return sizes.reduce((total, size) => total + size, 0);
}
