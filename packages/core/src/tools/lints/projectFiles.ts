import { stat } from "node:fs/promises";
import path from "node:path";
import { isExecutableFile } from "../../fileSystem/executableOnPath.js";

/** Whether any of `names` exists in the project root. */
export async function hasAnyFile(projectRoot: string, names: readonly string[]): Promise<boolean> {
  for (const name of names) {
    try {
      await stat(path.join(projectRoot, name));
      return true;
    } catch {}
  }
  return false;
}

/** The first of `relativePaths` that is an executable file in the project, as an absolute path. */
export async function projectExecutable(
  projectRoot: string,
  relativePaths: readonly string[],
): Promise<string | undefined> {
  for (const relative of relativePaths) {
    const candidate = path.join(projectRoot, relative);
    if (await isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}
