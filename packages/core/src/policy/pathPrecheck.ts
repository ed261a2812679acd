import type { LatheErrorInfo } from "@lathe/protocol";
import { extraRootsFor, isMcpToolName } from "./guardedRoots.js";
import { resolveProjectPath } from "./pathGuard.js";

/**
 * The path guard the tools apply when they run, asked before they run: the first path of the
 * call that the guard refuses (outside the project, NUL bytes, a device file…), with the guard's
 * own error. Undefined when every path passes.
 */
export async function refusedPath(
  toolName: string,
  paths: readonly string[],
  locations: { projectRoot: string; latheHome: string },
): Promise<LatheErrorInfo | undefined> {
  if (isMcpToolName(toolName)) return undefined;
  const extraRoots = extraRootsFor(toolName, locations.latheHome);
  for (const requested of paths) {
    const guarded = await resolveProjectPath(locations.projectRoot, requested, { extraRoots });
    if (!guarded.ok) return guarded.error;
  }
  return undefined;
}
