import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { ProjectIgnore } from "../../tools/projectIgnore/projectIgnore.js";
import { isSkippedByName } from "./skippedFiles.js";

/**
 * The project's files worth indexing, relative with forward slashes and sorted: what git would
 * track (`.gitignore`, `.latheignore` and the built-in ignores such as node_modules applied),
 * without symbolic links (one could lead out of the project) and without files skipped by name
 * (binaries, lock files, minified code). Stops early, with what it found, when `signal` aborts.
 */
export async function listProjectFiles(projectRoot: string, signal?: AbortSignal): Promise<string[]> {
  const ignore = new ProjectIgnore(projectRoot);
  const files: string[] = [];
  const pending = [""];
  while (pending.length > 0 && signal?.aborted !== true) {
    const directory = pending.pop() ?? "";
    for (const entry of await readEntries(path.join(projectRoot, directory))) {
      const relative = directory === "" ? entry.name : `${directory}/${entry.name}`;
      const isDirectory = entry.isDirectory();
      if (!isDirectory && !entry.isFile()) continue;
      if (await ignore.isIgnored(relative, isDirectory)) continue;
      if (isDirectory) pending.push(relative);
      else if (!isSkippedByName(relative)) files.push(relative);
    }
  }
  return files.sort();
}

/** Whether a single path (after an edit) is one `listProjectFiles` would list, the file aside. */
export async function isIndexablePath(ignore: ProjectIgnore, relative: string): Promise<boolean> {
  return !isSkippedByName(relative) && !(await ignore.isIgnored(relative, false));
}

async function readEntries(directory: string): Promise<Dirent[]> {
  try {
    return await readdir(directory, { withFileTypes: true });
  } catch {
    // An unreadable directory is skipped, as a search would skip it.
    return [];
  }
}
