import { readFileSync } from "node:fs";

/** What Lathe reads of a process from Linux's `/proc/<pid>/stat`. */
export interface ProcStat {
  /** R, S, D, Z (a zombie: exited, not yet reaped)… */
  state: string;
  ppid: number;
  pgid: number;
  /** When it started, in clock ticks after boot: with the pid, names a process even once the pid is reused. */
  startTicks: number;
}

/**
 * `/proc/<pid>/stat`, or undefined where there is no /proc or the process is gone or hidden. The
 * command name (field 2) may hold spaces and parentheses, so the fields are counted from its
 * closing parenthesis: state is field 3, ppid 4, pgrp 5, starttime 22.
 */
export function readProcStat(pid: number): ProcStat | undefined {
  if (process.platform !== "linux") return undefined;
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const state = fields[0];
  const [ppid, pgid, startTicks] = [fields[1], fields[2], fields[19]].map(Number);
  if (state === undefined || ppid === undefined || pgid === undefined || startTicks === undefined)
    return undefined;
  if (![ppid, pgid, startTicks].every(Number.isSafeInteger)) return undefined;
  return { state, ppid, pgid, startTicks };
}
