import type { Dirent } from "node:fs";
import { lstat, readdir } from "node:fs/promises";
import path from "node:path";
import { operationLockName } from "./operationLock.js";

/**
 * Total size in bytes of the files under `dir`; 0 when it does not exist. Lathe's operation lock
 * is left out: it only exists while an operation runs, so the size of one state would depend on
 * whether it was measured from inside an operation or not.
 */
export async function directorySize(dir: string): Promise<number> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { recursive: true, withFileTypes: true });
  } catch {
    return 0;
  }
  const sizes = await Promise.all(
    entries
      .filter((entry) => entry.isFile() && !(entry.parentPath === dir && entry.name === operationLockName))
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
