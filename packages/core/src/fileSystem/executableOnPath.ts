import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import path from "node:path";

const lookups = new Map<string, Promise<string | undefined>>();

/**
 * The absolute path of an executable found on PATH, as a shell would find it, or undefined.
 * Looked up once per name and PATH value: tools ask on every call.
 */
export function executableOnPath(
  name: string,
  searchPath: string = process.env.PATH ?? "",
): Promise<string | undefined> {
  const key = `${name}\0${searchPath}`;
  let lookup = lookups.get(key);
  if (lookup === undefined) {
    lookup = findExecutable(name, searchPath);
    lookups.set(key, lookup);
  }
  return lookup;
}

async function findExecutable(name: string, searchPath: string): Promise<string | undefined> {
  const names = process.platform === "win32" ? [`${name}.exe`, `${name}.cmd`, name] : [name];
  for (const directory of searchPath.split(path.delimiter)) {
    if (directory === "" || !path.isAbsolute(directory)) continue;
    for (const candidate of names.map((file) => path.join(directory, file))) {
      if (await isExecutableFile(candidate)) return candidate;
    }
  }
  return undefined;
}

export async function isExecutableFile(candidate: string): Promise<boolean> {
  try {
    await access(candidate, constants.X_OK);
    return (await stat(candidate)).isFile();
  } catch {
    return false;
  }
}
