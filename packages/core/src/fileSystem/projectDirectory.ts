import { realpath, rmdir } from "node:fs/promises";
import path from "node:path";
import { type ErrorCode, errorInfo, LatheError, type LatheErrorInfo } from "@lathe/protocol";
import { type DirectoryCursor, makeDirectory, openDirectoryCursor } from "./directoryCursor.js";

/** Where an operation runs: the entry's name in a directory that is held, not merely named. */
export interface ProjectEntry {
  /** A path to the entry that goes through the held directory. */
  entry: string;
  directory: DirectoryCursor;
  name: string;
  /**
   * Throws `E_PATH_TRAVERSAL` when the directory is no longer inside the project: for the last
   * moment before a rename, which matters most where directories are held by path only.
   */
  confirm(): Promise<void>;
}

export type InProject<T> =
  | {
      ok: true;
      value: T;
      /** Directories created on the way, deepest first, by their path when they were made. */
      createdDirectories: string[];
    }
  | { ok: false; error: LatheErrorInfo };

/** Symlink hops allowed on the way, as the kernel's own limit (ELOOP beyond it). */
const maxSymlinkHops = 40;

/**
 * Runs `operation` on the entry `target` names, with its parent directory opened one component
 * at a time from the project root without following a symbolic link. A link on the way is
 * followed only where it leads inside the project, walked again from the root; one leading out
 * is `E_PATH_TRAVERSAL`. So a directory swapped for a link after the path guard judged the path
 * cannot carry the operation outside the project (SPEC §5). The last component is not followed:
 * the operation decides what a link there means (a rename replaces it, an unlink removes it).
 * When the operation throws, the directories created for it are removed again.
 */
export async function inProjectDirectory<T>(
  projectRoot: string,
  target: string,
  operation: (place: ProjectEntry) => Promise<T>,
  options: { createParents?: boolean } = {},
): Promise<InProject<T>> {
  const realRoot = await realpath(projectRoot);
  const opened = await openParent(realRoot, path.resolve(realRoot, target), options.createParents === true);
  if (!opened.ok) return opened;
  const { cursor, name, rootPath } = opened;
  const createdDirectories = opened.created.reverse();
  const stillInside = async () => {
    const where = await cursor.currentPath();
    return where !== undefined && componentsBelow(rootPath, where) !== undefined;
  };
  const movedMessage = `${target} is no longer inside the project ${realRoot}.`;
  const confirm = async () => {
    if (!(await stillInside())) throw new LatheError("E_PATH_TRAVERSAL", movedMessage);
  };
  let value: T;
  try {
    // The walk held every directory it passed; this catches one moved out of the project meanwhile.
    if (!(await stillInside())) {
      await removeCreatedDirectories(realRoot, createdDirectories);
      return failure("E_PATH_TRAVERSAL", movedMessage);
    }
    value = await operation({ entry: cursor.entry(name), directory: cursor, name, confirm });
  } catch (error) {
    await removeCreatedDirectories(realRoot, createdDirectories);
    throw error;
  } finally {
    await cursor.close();
  }
  return { ok: true, value, createdDirectories };
}

/** Removes an empty directory of the project; false when it is not there or not empty. */
export async function removeEmptyProjectDirectory(projectRoot: string, directory: string): Promise<boolean> {
  try {
    const removed = await inProjectDirectory(projectRoot, directory, ({ entry }) => rmdir(entry));
    return removed.ok;
  } catch {
    return false;
  }
}

/** Best effort, deepest first: a directory that is no longer empty holds something that is not ours. */
async function removeCreatedDirectories(realRoot: string, deepestFirst: readonly string[]): Promise<void> {
  for (const directory of deepestFirst) {
    if (!(await removeEmptyProjectDirectory(realRoot, directory))) return;
  }
}

type OpenedParent =
  | { ok: true; cursor: DirectoryCursor; name: string; rootPath: string; created: string[] }
  | { ok: false; error: LatheErrorInfo };

async function openParent(realRoot: string, absolute: string, create: boolean): Promise<OpenedParent> {
  const remaining = componentsBelow(realRoot, absolute);
  if (remaining === undefined) {
    return failure("E_PATH_TRAVERSAL", `${absolute} is outside the project ${realRoot}.`);
  }
  const walk: Walk = { cursor: await openDirectoryCursor(realRoot), at: realRoot, remaining, created: [] };
  try {
    const rootPath = (await walk.cursor.currentPath()) ?? realRoot;
    const error = await walkToParent(walk, realRoot, absolute, create);
    const [name] = walk.remaining;
    if (error === undefined && name !== undefined) {
      return { ok: true, cursor: walk.cursor, name, rootPath, created: walk.created };
    }
    await release(walk, realRoot);
    return {
      ok: false,
      error: error ?? errorInfo("E_SECURITY_BLOCKED", `${absolute} is the project root itself.`),
    };
  } catch (error) {
    await release(walk, realRoot);
    throw error;
  }
}

interface Walk {
  /** The directory reached so far. */
  cursor: DirectoryCursor;
  /** Its real path as walked. */
  at: string;
  /** Components still to walk, the entry's own name last. */
  remaining: string[];
  created: string[];
}

/** Walks `walk` down to the entry's parent; the error that stopped it, or undefined. */
async function walkToParent(
  walk: Walk,
  realRoot: string,
  absolute: string,
  create: boolean,
): Promise<LatheErrorInfo | undefined> {
  let detours = 0;
  while (walk.remaining.length > 1) {
    const [name, ...rest] = walk.remaining as [string, ...string[]];
    const here = path.join(walk.at, name);
    const step = await walk.cursor.descend(name);
    if (step.kind === "directory") {
      await walk.cursor.close();
      walk.cursor = step.cursor;
      walk.at = here;
      walk.remaining = rest;
      continue;
    }
    if (step.kind === "other") return errorInfo("E_INVALID_ARGS", `${here} is not a directory.`);
    if (++detours > maxSymlinkHops) {
      return errorInfo("E_SECURITY_BLOCKED", `Too many symbolic links or changes on the way to ${absolute}.`);
    }
    if (step.kind === "changed") continue;
    if (step.kind === "missing") {
      if (!create) return errorInfo("E_FILE_NOT_FOUND", `${here} does not exist.`);
      if (await makeDirectory(walk.cursor, name)) walk.created.push(here);
      continue;
    }
    // `at` is a real path (every directory on it was opened without following a link), so `..` in
    // the link's target means what the kernel would make of it.
    const below = componentsBelow(realRoot, path.resolve(walk.at, step.target, ...rest));
    if (below === undefined) {
      const message = `${here} is a symbolic link to ${step.target}, which leads out of the project ${realRoot}.`;
      return errorInfo("E_PATH_TRAVERSAL", message);
    }
    await walk.cursor.close();
    walk.cursor = await openDirectoryCursor(realRoot);
    walk.at = realRoot;
    walk.remaining = below;
  }
  return undefined;
}

/** Lets go of a walk that will not reach its operation, taking back the directories it made. */
async function release(walk: Walk, realRoot: string): Promise<void> {
  await walk.cursor.close().catch(() => undefined);
  await removeCreatedDirectories(realRoot, [...walk.created].reverse());
}

/** The path's components below `root`, or undefined when it is not inside it; [] for the root itself. */
function componentsBelow(root: string, candidate: string): string[] | undefined {
  const relative = path.relative(root, candidate);
  if (relative === "") return [];
  if (path.isAbsolute(relative) || relative === ".." || relative.startsWith(`..${path.sep}`))
    return undefined;
  return relative.split(path.sep);
}

function failure(code: ErrorCode, message: string): { ok: false; error: LatheErrorInfo } {
  return { ok: false, error: errorInfo(code, message) };
}
