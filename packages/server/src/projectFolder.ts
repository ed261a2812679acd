import type { Dirent } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { ProjectIgnore, resolveProjectPath } from "@lathe/core";
import type { FileListing } from "@lathe/protocol";
import { type ServiceResult, served, serviceError } from "./serviceResult.js";

type Entry = FileListing["entries"][number];

/** Alphabetical as people read it (`b` before `C`), ties in code-unit order so the listing is stable. */
function byName(a: Entry, b: Entry): number {
  return compareText(a.name.toLowerCase(), b.name.toLowerCase()) || compareText(a.name, b.name);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * One level of a project folder for the file tree: folders first, then files, each by name,
 * leaving out what the project ignores (its ignore files, `.git`, `node_modules`…). A folder
 * that is itself ignored is listed whole: opening it is asking to see inside. `dir` must resolve
 * inside the project, symlinks followed.
 */
export async function listProjectFolder(
  projectRoot: string,
  dir: string,
): Promise<ServiceResult<FileListing>> {
  const guarded = await resolveProjectPath(projectRoot, dir === "" ? "." : dir);
  if (!guarded.ok) return serviceError("invalid", guarded.error.code, guarded.error.message);
  const relative = guarded.relative === "." ? "" : toPosix(guarded.relative);
  let dirents: Dirent[];
  try {
    dirents = await readdir(guarded.path, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return serviceError("not_found", "E_FILE_NOT_FOUND", `${dir} does not exist.`);
    if (code === "ENOTDIR")
      return serviceError("invalid", "E_INVALID_ARGS", `${dir} is a file, not a folder.`);
    return serviceError("failed", "E_TOOL_EXECUTION", `Cannot read ${dir}: ${String(error)}`);
  }
  const ignore = new ProjectIgnore(projectRoot);
  const showAll = await ignore.isIgnored(relative, true);
  const folders: Entry[] = [];
  const files: Entry[] = [];
  for (const dirent of dirents) {
    const kind = await entryKind(dirent, path.join(guarded.path, dirent.name));
    if (kind === undefined) continue;
    const entryPath = relative === "" ? dirent.name : `${relative}/${dirent.name}`;
    if (!showAll && (await ignore.isIgnored(entryPath, kind === "dir"))) continue;
    (kind === "dir" ? folders : files).push({ name: dirent.name, path: entryPath, kind });
  }
  return served({ dir: relative, entries: [...folders.sort(byName), ...files.sort(byName)] });
}

/** Links are shown as what they point at; sockets, pipes and dangling links not at all. */
async function entryKind(dirent: Dirent, absolute: string): Promise<Entry["kind"] | undefined> {
  if (dirent.isDirectory()) return "dir";
  if (dirent.isFile()) return "file";
  if (!dirent.isSymbolicLink()) return undefined;
  const target = await stat(absolute).catch(() => undefined);
  if (target?.isDirectory()) return "dir";
  return target?.isFile() ? "file" : undefined;
}

function toPosix(relative: string): string {
  return relative.split(path.sep).join("/");
}
