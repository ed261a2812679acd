import type { Stats } from "node:fs";
import { lstat, unlink } from "node:fs/promises";
import { atomicReplaceEntry } from "./atomicWrite.js";
import { type InProject, inProjectDirectory } from "./projectDirectory.js";

/**
 * Writes a file of the project atomically, through its parent directory held open from the
 * project root (see `inProjectDirectory`); missing parents are created the same way. Returns
 * what was written as it lies on disk, looked up through the same directory.
 */
export function writeProjectFile(
  projectRoot: string,
  filePath: string,
  contents: string | Uint8Array,
): Promise<InProject<Stats>> {
  return inProjectDirectory(
    projectRoot,
    filePath,
    async ({ entry, confirm }) => {
      await atomicReplaceEntry(entry, contents, { beforeRename: confirm });
      return lstat(entry);
    },
    { createParents: true },
  );
}

/** Removes a file of the project, or a symbolic link itself (never what it points at). */
export function removeProjectFile(projectRoot: string, filePath: string): Promise<InProject<void>> {
  return inProjectDirectory(projectRoot, filePath, ({ entry }) => unlink(entry));
}
