import type { Stats } from "node:fs";
import { lstat } from "node:fs/promises";
import path from "node:path";
import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { resolveProjectPath } from "../../policy/pathGuard.js";
import { missingFileError } from "../missingFile.js";

export type DeletionTarget =
  | {
      ok: true;
      /** Absolute, with every symlink followed except the last component: deleting a link deletes the link. */
      path: string;
      /** Relative to the project root, for display. */
      relative: string;
      /** `lstat` of the entry. */
      stats: Stats;
    }
  | { ok: false; error: LatheErrorInfo };

/**
 * Resolves what deleting `input` would remove. The path guard judges where the path leads (a link
 * leading outside the project is refused like any path outside it), but the entry removed is the
 * one named: for a symbolic link, the link, never its target. The project root itself is refused.
 */
export async function resolveDeletionTarget(projectRoot: string, input: string): Promise<DeletionTarget> {
  const guarded = await resolveProjectPath(projectRoot, input);
  if (!guarded.ok) return guarded;
  const named = path.resolve(projectRoot, input);
  if (named === path.resolve(projectRoot)) {
    const message = `${input} is the project root; it cannot be deleted. Name the files or directories inside it instead.`;
    return { ok: false, error: errorInfo("E_SECURITY_BLOCKED", message) };
  }
  const parent = await resolveProjectPath(projectRoot, path.dirname(named));
  if (!parent.ok) return parent;
  const target = path.join(parent.path, path.basename(named));
  const relative = path.relative(projectRoot, target);
  let stats: Stats;
  try {
    stats = await lstat(target);
  } catch (error) {
    const code = typeof error === "object" && error !== null && "code" in error ? error.code : undefined;
    if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
    return { ok: false, error: await missingFileError(target, relative) };
  }
  return { ok: true, path: target, relative, stats };
}
