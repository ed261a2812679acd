import path from "node:path";
import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import picomatch from "picomatch";
import { escapePath } from "tinyglobby";

export type SplitGlobPattern =
  | {
      ok: true;
      /** The leading part without glob characters: a directory path, relative or absolute. */
      staticBase: string;
      /** The rest, matched inside `staticBase`. */
      glob: string;
    }
  | { ok: false; error: LatheErrorInfo };

/**
 * Splits a glob pattern into the directory it starts in and the glob to match there, so that
 * directory can go through the path guard like any other path: a crawl that starts in a symlink
 * leading outside the project would otherwise read outside it. Parent segments are refused outright
 * rather than resolved, since a glob crawler resolves them itself.
 */
export function splitGlobPattern(pattern: string): SplitGlobPattern {
  if (pattern.includes("\0")) {
    return {
      ok: false,
      error: errorInfo("E_SECURITY_BLOCKED", "Patterns containing NUL bytes are refused."),
    };
  }
  if (pattern.startsWith("!")) {
    const message =
      "Negated patterns (starting with !) are not supported; give a pattern of the files you want.";
    return { ok: false, error: errorInfo("E_INVALID_ARGS", message) };
  }
  if (pattern.split("/").includes("..")) {
    const message = `The pattern ${pattern} goes up with '..'; patterns may only match inside the search directory. Use path to choose where to search inside the project.`;
    return { ok: false, error: errorInfo("E_PATH_TRAVERSAL", message) };
  }
  const scanned = picomatch.scan(pattern, { unescape: true });
  if (scanned.isGlob) return { ok: true, staticBase: scanned.base || ".", glob: scanned.glob };
  // A plain path: its directory is the base and its name, escaped, the glob.
  const withoutTrailingSlash = pattern.length > 1 ? pattern.replace(/\/+$/, "") : pattern;
  return {
    ok: true,
    staticBase: path.posix.dirname(withoutTrailingSlash),
    glob: escapePath(path.posix.basename(withoutTrailingSlash)),
  };
}
