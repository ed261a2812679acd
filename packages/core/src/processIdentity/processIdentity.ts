import { readProcStat } from "./procStat.js";

/**
 * A process as a record of what it owns names it (a run, a checkpoint lock): its pid and, on Linux,
 * when it started (clock ticks after boot, from /proc), so a reused pid is not taken for it.
 */
export interface ProcessIdentity {
  pid: number;
  startTicks: number | undefined;
}

let self: ProcessIdentity | undefined;

/**
 * This process, read once per process: a start-up snapshot carries module state from the process
 * that built it into every process it starts, so the cache is checked against the pid.
 */
export function currentProcess(): ProcessIdentity {
  if (self?.pid !== process.pid)
    self = { pid: process.pid, startTicks: readProcStat(process.pid)?.startTicks };
  return self;
}

/**
 * Whether the process still runs. A zombie (killed, not yet reaped by its parent) has stopped;
 * a process `kill -0` may not signal (another user's) is there all the same. Where /proc does
 * not show the process or no start time was recorded, the pid alone decides.
 */
export function processRunning(identity: ProcessIdentity): boolean {
  try {
    process.kill(identity.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const stat = readProcStat(identity.pid);
  if (stat === undefined) return true;
  if (stat.state === "Z") return false;
  return identity.startTicks === undefined || stat.startTicks === identity.startTicks;
}
