import { execFile } from "node:child_process";
import { chmod, mkdir, stat } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import { promisify } from "node:util";
import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { runsAsRoot } from "./postgresPrograms.js";

const run = promisify(execFile);

/** `$LATHE_HOME/cloud/postgres`: the server's log and socket; its data in `data/` below. */
export function privateClusterFolder(latheHome: string): string {
  return join(resolve(latheHome), "cloud", "postgres");
}

export function clusterDataFolder(folder: string): string {
  return join(folder, "data");
}

/**
 * Creates the cluster's folder, open to its owner alone. As root the server runs as `nobody`, so
 * the folder becomes nobody's, and nobody must be able to pass through every folder above it.
 */
export async function prepareClusterFolder(
  latheHome: string,
  folder: string,
): Promise<{ ok: true } | { ok: false; error: LatheErrorInfo }> {
  try {
    await mkdir(folder, { recursive: true, mode: 0o700 });
    if (!runsAsRoot()) return { ok: true };
    if ((await stat(folder)).uid === 0) await run("chown", ["nobody", folder]);
    return await letNobodyThrough(resolve(latheHome), dirname(folder));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      error: errorInfo("E_STORAGE", `The cluster folder ${folder} could not be prepared: ${message}`),
    };
  }
}

/**
 * Gives others the right to pass through `$LATHE_HOME` and the folders under it that lead to the
 * cluster: search without read, so only a name already known can be opened, and what Lathe keeps
 * there that is private (credentials, trust record, session database, database.json) is 0600 or
 * in a 0700 folder of its own. Folders above `$LATHE_HOME` are the user's, not ours to open: one
 * that shuts nobody out is an error that says what to do.
 */
async function letNobodyThrough(
  latheHome: string,
  parent: string,
): Promise<{ ok: true } | { ok: false; error: LatheErrorInfo }> {
  for (let dir = parent; ; dir = dirname(dir)) {
    const mode = (await stat(dir)).mode & 0o7777;
    const up = relative(latheHome, dir);
    const ours = up !== ".." && !up.startsWith(`..${sep}`);
    if ((mode & 0o001) === 0 && ours) await chmod(dir, mode | 0o001);
    if ((mode & 0o001) === 0 && !ours) {
      return {
        ok: false,
        error: errorInfo(
          "E_STORAGE",
          `PostgreSQL will not run as root, so Lathe runs it as nobody, who may not pass through ${dir}. Allow it (chmod o+x ${dir}) or set LATHE_HOME to a folder outside it.`,
        ),
      };
    }
    if (dirname(dir) === dir) return { ok: true };
  }
}
