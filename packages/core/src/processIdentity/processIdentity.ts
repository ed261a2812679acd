import { readFileSync } from "node:fs";

/**
 * A process as a record of what it owns names it (a run, a checkpoint lock): its pid and, on Linux,
 * when it started (clock ticks after boot, from /proc), so a reused pid is not taken for it.
 */
export interface ProcessIdentity {
  pid: number;
  startTicks: number | undefined;
}

interface ProcStat {
  state: string;
  startTicks: number;
}

/**
 * `/proc/<pid>/stat`, or undefined where there is no /proc or the process is gone or hidden. The
 * command name (field 2) may hold spaces and parentheses, so the fields are counted from its
 * closing parenthesis: state is field 3, starttime field 22.
 */
function procStat(pid: number): ProcStat | undefined {
  if (process.platform !== "linux") return undefined;
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const startTicks = Number(fields[19]);
  if (fields[0] === undefined || !Number.isSafeInteger(startTicks)) return undefined;
  return { state: fields[0], startTicks };
}

let self: ProcessIdentity | undefined;

/**
 * This process, read once per process: a start-up snapshot carries module state from the process
 * that built it into every process it starts, so the cache is checked against the pid.
 */
export function currentProcess(): ProcessIdentity {
  if (self?.pid !== process.pid) self = { pid: process.pid, startTicks: procStat(process.pid)?.startTicks };
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
  const stat = procStat(identity.pid);
  if (stat === undefined) return true;
  if (stat.state === "Z") return false;
  return identity.startTicks === undefined || stat.startTicks === identity.startTicks;
}
