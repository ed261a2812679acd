import { lstatSync, readlinkSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";

export interface PathGuardOptions {
  /** Directories outside the project that may be used too (e.g. spilled tool output). */
  extraRoots?: readonly string[];
}

export type GuardedPath =
  | {
      ok: true;
      /** Absolute path with every existing symlink followed. */
      path: string;
      /** For display: relative to the project root, or absolute when under an extra root. */
      relative: string;
    }
  | { ok: false; error: LatheErrorInfo };

/** Symlink hops allowed while resolving, as the kernel's own limit (ELOOP beyond it). */
const maxSymlinkHops = 40;

/**
 * Resolves a path given by the model against the project root and refuses anything that ends up
 * outside it (SPEC §5). Containment is decided on the real path, so a symlink inside the project
 * that points elsewhere counts as elsewhere, and a path that does not exist yet is judged by its
 * longest existing prefix.
 *
 * The file system is asked synchronously: a few path lookups take microseconds, while each
 * asynchronous one waits for a thread-pool round trip, and the guard runs before every call
 * (by the policy) and again in the tool.
 */
export async function resolveProjectPath(
  projectRoot: string,
  input: string,
  options: PathGuardOptions = {},
): Promise<GuardedPath> {
  if (input.includes("\0")) {
    return { ok: false, error: errorInfo("E_SECURITY_BLOCKED", "Paths containing NUL bytes are refused.") };
  }
  const realRoot = realpathAllowingMissing(path.resolve(projectRoot));
  if (!realRoot.ok) return { ok: false, error: errorInfo("E_SECURITY_BLOCKED", realRoot.reason) };
  const resolved = realpathAllowingMissing(path.resolve(projectRoot, input));
  if (!resolved.ok) return { ok: false, error: errorInfo("E_SECURITY_BLOCKED", resolved.reason) };

  const relative = displayPathWithinRoots(resolved.path, realRoot.path, options.extraRoots ?? []);
  if (relative === undefined) {
    const message = `${input} resolves to ${resolved.path}, which is outside the project ${realRoot.path}.`;
    return { ok: false, error: errorInfo("E_PATH_TRAVERSAL", message) };
  }

  const special = specialFileKind(resolved.path);
  if (special !== undefined) {
    return {
      ok: false,
      error: errorInfo(
        "E_SECURITY_BLOCKED",
        `${input} is a ${special}; only regular files and directories are allowed.`,
      ),
    };
  }
  return { ok: true, path: resolved.path, relative };
}

/** True when `candidate` is `root` or lies below it, judged by path segments, never by string prefix. */
export function isWithin(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  if (relative === "") return true;
  if (path.isAbsolute(relative)) return false;
  return relative !== ".." && !relative.startsWith(`..${path.sep}`);
}

function displayPathWithinRoots(
  resolved: string,
  realRoot: string,
  extraRoots: readonly string[],
): string | undefined {
  if (isWithin(realRoot, resolved)) return path.relative(realRoot, resolved) || ".";
  for (const extraRoot of extraRoots) {
    const realExtra = realpathAllowingMissing(path.resolve(extraRoot));
    if (realExtra.ok && isWithin(realExtra.path, resolved)) return resolved;
  }
  return undefined;
}

type RealpathResult = { ok: true; path: string } | { ok: false; reason: string };

/**
 * `realpath` of the longest existing prefix with the missing rest appended. A dangling symlink
 * on the way is followed by hand, since writing through it would land at its target. The
 * system's realpath(3) (`.native`): one call, where the JavaScript one stats every segment.
 */
function realpathAllowingMissing(absolute: string): RealpathResult {
  let existing = absolute;
  const missing: string[] = [];
  let symlinkHops = 0;
  for (;;) {
    try {
      return { ok: true, path: path.join(realpathSync.native(existing), ...missing) };
    } catch (error) {
      const code = errorCode(error);
      if (code === "ELOOP") return { ok: false, reason: `Too many levels of symbolic links in ${absolute}.` };
      if (code !== "ENOENT" && code !== "ENOTDIR") {
        return { ok: false, reason: `Cannot resolve ${absolute}: ${String(error)}` };
      }
    }
    const danglingTarget = symlinkTarget(existing);
    if (danglingTarget !== undefined) {
      symlinkHops++;
      if (symlinkHops > maxSymlinkHops) {
        return { ok: false, reason: `Too many levels of symbolic links in ${absolute}.` };
      }
      existing = path.resolve(path.dirname(existing), danglingTarget);
      continue;
    }
    const parent = path.dirname(existing);
    if (parent === existing) return { ok: true, path: path.join(existing, ...missing) };
    missing.unshift(path.basename(existing));
    existing = parent;
  }
}

function symlinkTarget(candidate: string): string | undefined {
  try {
    const stats = lstatSync(candidate);
    return stats.isSymbolicLink() ? readlinkSync(candidate) : undefined;
  } catch {
    return undefined;
  }
}

function specialFileKind(resolved: string): string | undefined {
  try {
    const stats = statSync(resolved);
    if (stats.isFile() || stats.isDirectory()) return undefined;
    if (stats.isCharacterDevice() || stats.isBlockDevice()) return "device file";
    if (stats.isFIFO()) return "named pipe (FIFO)";
    if (stats.isSocket()) return "socket";
    return "special file";
  } catch {
    return undefined;
  }
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  return typeof error.code === "string" ? error.code : undefined;
}
