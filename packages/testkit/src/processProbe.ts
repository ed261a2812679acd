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

/** Whether `pid` is gone within `withinMs`: a kill signal is delivered asynchronously, so look again. */
export async function processGoneWithin(pid: number, withinMs = 3000): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (processAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}
