import { readFileSync } from "node:fs";

/**
 * Alive as `kill -0` sees it, except that a zombie counts as gone: where PID 1 does not reap
 * orphans, a killed process lingers as a zombie although it no longer runs.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const state = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0];
    return state !== "Z";
  } catch {
    return false;
  }
}
