import { constants, type Stats } from "node:fs";
import { type FileHandle, lstat, mkdir, open, readlink, realpath } from "node:fs/promises";
import path from "node:path";

/** What a name inside a directory turned out to be, looked at without following a symbolic link. */
export type DirectoryStep =
  | { kind: "directory"; cursor: DirectoryCursor }
  | { kind: "symlink"; target: string }
  | { kind: "missing" }
  | { kind: "other" }
  /** It changed while being looked at: look again. */
  | { kind: "changed" };

/**
 * A directory being worked in. On Linux it is an open handle, and every path it gives goes
 * through `/proc/self/fd/N`, which the kernel resolves to the directory the handle holds even
 * after its path was renamed or swapped for a symbolic link: the `openat` family, which Node
 * lacks. Elsewhere it is the directory's checked real path, re-checked before each use.
 */
export interface DirectoryCursor {
  /** The path of this directory for readdir and fsync. */
  readonly self: string;
  /** The path of the entry `name` of this directory. */
  entry(name: string): string;
  /** Opens the subdirectory `name`, never through a symbolic link. */
  descend(name: string): Promise<DirectoryStep>;
  /** Where this directory is now, or undefined when that cannot be told. */
  currentPath(): Promise<string | undefined>;
  close(): Promise<void>;
}

const directoryFlags = constants.O_RDONLY | constants.O_DIRECTORY;

/** A cursor on `realRoot`, a handle where `/proc/self/fd` resolves handles, a checked path elsewhere. */
export async function openDirectoryCursor(realRoot: string): Promise<DirectoryCursor> {
  if (process.platform !== "linux") return new PathCursor(realRoot);
  const handle = await open(realRoot, directoryFlags);
  try {
    await readlink(handlePath(handle));
  } catch {
    // No /proc (some containers): the checked path is all there is.
    await handle.close();
    return new PathCursor(realRoot);
  }
  return new HandleCursor(handle);
}

class HandleCursor implements DirectoryCursor {
  readonly self: string;

  constructor(private readonly handle: FileHandle) {
    this.self = handlePath(handle);
  }

  entry(name: string): string {
    return `${this.self}/${name}`;
  }

  async descend(name: string): Promise<DirectoryStep> {
    try {
      return {
        kind: "directory",
        cursor: new HandleCursor(await open(this.entry(name), directoryFlags | constants.O_NOFOLLOW)),
      };
    } catch (error) {
      const code = errorCode(error);
      if (code === "ENOENT") return { kind: "missing" };
      // O_NOFOLLOW|O_DIRECTORY refuses a link with ENOTDIR on Linux (ELOOP elsewhere): lstat tells which.
      if (code !== "ENOTDIR" && code !== "ELOOP") throw error;
    }
    return stepOfNonDirectory(this.entry(name));
  }

  async currentPath(): Promise<string | undefined> {
    try {
      return await readlink(this.self);
    } catch {
      return undefined;
    }
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}

/** Without handles: the window between the last check and the operation stays open, narrowed to one call. */
class PathCursor implements DirectoryCursor {
  constructor(readonly self: string) {}

  entry(name: string): string {
    return path.join(this.self, name);
  }

  async descend(name: string): Promise<DirectoryStep> {
    const entry = this.entry(name);
    const stats = await lstatIfExists(entry);
    if (stats === undefined) return { kind: "missing" };
    if (stats.isDirectory()) return { kind: "directory", cursor: new PathCursor(entry) };
    return stepOfNonDirectory(entry);
  }

  async currentPath(): Promise<string | undefined> {
    try {
      const real = await realpath(this.self);
      // A path that now resolves elsewhere was swapped: it is not where it was checked to be.
      return real === this.self ? real : undefined;
    } catch {
      return undefined;
    }
  }

  async close(): Promise<void> {}
}

/** Creates the subdirectory `name`; false when something is already there. */
export async function makeDirectory(cursor: DirectoryCursor, name: string): Promise<boolean> {
  try {
    await mkdir(cursor.entry(name));
    return true;
  } catch (error) {
    if (errorCode(error) === "EEXIST") return false;
    throw error;
  }
}

async function stepOfNonDirectory(entry: string): Promise<DirectoryStep> {
  const stats = await lstatIfExists(entry);
  if (stats === undefined) return { kind: "missing" };
  if (stats.isDirectory()) return { kind: "changed" };
  if (!stats.isSymbolicLink()) return { kind: "other" };
  try {
    return { kind: "symlink", target: await readlink(entry) };
  } catch (error) {
    const code = errorCode(error);
    if (code === "EINVAL" || code === "ENOENT") return { kind: "changed" };
    throw error;
  }
}

async function lstatIfExists(entry: string): Promise<Stats | undefined> {
  try {
    return await lstat(entry);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return undefined;
    throw error;
  }
}

function handlePath(handle: FileHandle): string {
  return `/proc/self/fd/${handle.fd}`;
}

export function errorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  return typeof error.code === "string" ? error.code : undefined;
}
