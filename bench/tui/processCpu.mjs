// CPU time and resident memory of a process and its descendants, read from /proc (Linux).
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

const ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }));

/** The fields of /proc/<pid>/stat after the command name, which may itself hold spaces. */
function statFields(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined; // gone between the listing and the read
  }
}

/** The processes below `root`, however deep. */
function descendants(root) {
  const parentOf = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const fields = statFields(name);
    if (fields) parentOf.set(Number(name), Number(fields[1]));
  }
  const found = [];
  const parents = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, parent] of parentOf) {
      if (parents.has(parent) && !parents.has(pid)) {
        parents.add(pid);
        found.push(pid);
        grew = true;
      }
    }
  }
  return found;
}

/**
 * Seconds of CPU (user + system) used so far by `pid`, its children it has waited for, and its
 * descendants still running.
 */
export function treeCpuSeconds(pid) {
  const own = statFields(pid);
  if (!own) throw new Error(`process ${pid} is gone`);
  // utime, stime, cutime, cstime: fields 14–17 of the stat line, 12–15 after the name.
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const child of descendants(pid)) {
    const fields = statFields(child);
    if (fields) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / ticksPerSecond;
}

/** VmRSS of `pid` in MB. */
export function residentMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]);
  return kb / 1024;
}
