import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { readProcStat } from "@lathe/core";

interface ProcessEntry {
  pid: number;
  ppid: number;
  pgid: number;
}

/**
 * SIGKILLs every process below this one, as a kill of the whole tree would: first the process
 * groups they lead or belong to apart from ours (commands run detached, each in a group of its own,
 * so a group kill also reaches what a command started), then each descendant itself (children left
 * in our own group, such as a checkpoint's git). A process that has already left the tree (reparented
 * after its parent exited) is out of reach here; its group still dies when its group does.
 */
export function killDescendantProcesses(): void {
  const table = processTable();
  const own = table.find((entry) => entry.pid === process.pid);
  const below = descendantsOf(process.pid, table);
  const groups = new Set(below.map((entry) => entry.pgid).filter((pgid) => pgid !== own?.pgid && pgid > 1));
  for (const pgid of groups) signal(-pgid);
  for (const entry of below) signal(entry.pid);
}

function signal(target: number): void {
  try {
    process.kill(target, "SIGKILL");
  } catch {
    // Gone already: it exited between the listing and the kill.
  }
}

function descendantsOf(root: number, table: ProcessEntry[]): ProcessEntry[] {
  const children = new Map<number, ProcessEntry[]>();
  for (const entry of table) {
    const siblings = children.get(entry.ppid) ?? [];
    siblings.push(entry);
    children.set(entry.ppid, siblings);
  }
  const found: ProcessEntry[] = [];
  const pending = [root];
  for (let parent = pending.pop(); parent !== undefined; parent = pending.pop()) {
    for (const child of children.get(parent) ?? []) {
      found.push(child);
      pending.push(child.pid);
    }
  }
  return found;
}

/** Every process with its parent and group: from /proc where there is one, else from `ps`. */
function processTable(): ProcessEntry[] {
  return process.platform === "linux" ? procTable() : psTable();
}

function procTable(): ProcessEntry[] {
  const entries: ProcessEntry[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readProcStat(Number(name));
    if (stat !== undefined) entries.push({ pid: Number(name), ppid: stat.ppid, pgid: stat.pgid });
  }
  return entries;
}

function psTable(): ProcessEntry[] {
  const listing = spawnSync("ps", ["-A", "-o", "pid=,ppid=,pgid="], { encoding: "utf8" });
  if (listing.status !== 0) return [];
  const entries: ProcessEntry[] = [];
  for (const line of listing.stdout.split("\n")) {
    const [pid, ppid, pgid] = line.trim().split(/\s+/).map(Number);
    if (pid !== undefined && ppid !== undefined && pgid !== undefined && !Number.isNaN(pid + ppid + pgid)) {
      entries.push({ pid, ppid, pgid });
    }
  }
  return entries;
}
