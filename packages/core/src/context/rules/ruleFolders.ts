import type { Dirent } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { locateInside } from "./ruleFileReader.js";
import type { RuleLoadError } from "./ruleTypes.js";

/**
 * The files ending in `extension` under `folder` (relative to the root), at any depth, sorted
 * by path so rules always come in the same order. Symbolic links are followed while they stay
 * inside the project; one that leads outside is reported and skipped.
 */
export async function listRuleFiles(
  realRoot: string,
  folder: string,
  extension: string,
): Promise<{ files: string[]; errors: RuleLoadError[] }> {
  const files: string[] = [];
  const errors: RuleLoadError[] = [];
  // Real paths of the folders walked, so a link back up the tree cannot loop.
  const visited = new Set<string>();

  const walk = async (relativeDir: string, realDir: string): Promise<void> => {
    if (visited.has(realDir)) return;
    visited.add(realDir);
    let entries: Dirent[];
    try {
      entries = await readdir(realDir, { withFileTypes: true });
    } catch (error) {
      errors.push({ file: relativeDir, message: `could not be listed: ${(error as Error).message}` });
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const relative = path.posix.join(relativeDir, entry.name);
      const kind = await entryKind(realRoot, relative, path.join(realDir, entry.name), entry);
      if (kind.kind === "error") errors.push({ file: relative, message: kind.message });
      else if (kind.kind === "directory") await walk(relative, kind.path);
      else if (kind.kind === "file" && entry.name.endsWith(extension)) files.push(relative);
    }
  };

  const top = await locateInside(realRoot, folder);
  if (top.kind === "error") errors.push({ file: folder, message: top.message });
  if (top.kind === "inside" && (await isDirectory(top.path))) await walk(folder, top.path);
  return { files, errors };
}

type EntryKind =
  | { kind: "file" }
  | { kind: "directory"; path: string }
  | { kind: "other" }
  | { kind: "error"; message: string };

/** `realPath` is the entry inside its real folder: a real path unless the entry is a link. */
async function entryKind(
  realRoot: string,
  relative: string,
  realPath: string,
  entry: Dirent,
): Promise<EntryKind> {
  if (!entry.isSymbolicLink()) {
    if (entry.isFile()) return { kind: "file" };
    if (entry.isDirectory()) return { kind: "directory", path: realPath };
    return { kind: "other" };
  }
  const target = await locateInside(realRoot, relative);
  if (target.kind === "error") return target;
  if (target.kind === "absent") return { kind: "other" };
  if (await isDirectory(target.path)) return { kind: "directory", path: target.path };
  return { kind: "file" };
}

async function isDirectory(absolute: string): Promise<boolean> {
  try {
    return (await stat(absolute)).isDirectory();
  } catch {
    return false;
  }
}
