import { readdir, rmdir, unlink } from "node:fs/promises";
import type { DirectoryCursor } from "./directoryCursor.js";
import { type InProject, inProjectDirectory } from "./projectDirectory.js";

/**
 * Removes a directory of the project and everything in it. Each subdirectory is entered through
 * a handle opened without following a symbolic link, so a link found inside, or one swapped in
 * while the removal runs, is removed itself and what it points at is left alone.
 */
export function removeProjectTree(projectRoot: string, directory: string): Promise<InProject<void>> {
  return inProjectDirectory(projectRoot, directory, ({ directory: parent, name }) =>
    removeEntry(parent, name),
  );
}

async function removeEntry(parent: DirectoryCursor, name: string): Promise<void> {
  const step = await parent.descend(name);
  if (step.kind === "missing") return;
  if (step.kind !== "directory") {
    await unlink(parent.entry(name));
    return;
  }
  try {
    for (const child of await readdir(step.cursor.self, { withFileTypes: true })) {
      if (child.isDirectory()) await removeEntry(step.cursor, child.name);
      else await unlink(step.cursor.entry(child.name));
    }
  } finally {
    await step.cursor.close();
  }
  await rmdir(parent.entry(name));
}
