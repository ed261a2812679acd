// The resident memory of a process and all its descendants, read from /proc (Linux): what the
// machine gives a `lathe serve` with its git, shell and sandbox children at one moment.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

const pageBytes = Number(execFileSync("getconf", ["PAGESIZE"], { encoding: "utf8" }));

/** pid → [parent pid, resident bytes] of every process readable now. */
function processTable() {
  const table = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue; // gone between the listing and the read
    }
    // The command name (field 2) may hold spaces and parentheses: the fields after it are split.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    table.set(Number(name), [Number(fields[1]), Number(fields[21]) * pageBytes]);
  }
  return table;
}

/** Bytes resident now in `rootPid` alone (`root`) and in it with all its descendants (`tree`). */
export function rssBytes(rootPid) {
  const table = processTable();
  const children = new Map();
  for (const [pid, [parent]] of table) {
    const siblings = children.get(parent) ?? [];
    siblings.push(pid);
    children.set(parent, siblings);
  }
  let tree = 0;
  const queue = [rootPid];
  while (queue.length > 0) {
    const pid = queue.pop();
    tree += table.get(pid)?.[1] ?? 0;
    queue.push(...(children.get(pid) ?? []));
  }
  return { root: table.get(rootPid)?.[1] ?? 0, tree };
}

/**
 * Samples every `intervalMs` until stopped; `peak()` holds the largest root and tree figures seen
 * (each its own maximum). The samples are taken on a timer of this process, so a busy server
 * does not delay them.
 */
export function sampleRss(rootPid, intervalMs = 20) {
  const peak = { root: 0, tree: 0 };
  let samples = 0;
  const take = () => {
    const bytes = rssBytes(rootPid);
    samples += 1;
    peak.root = Math.max(peak.root, bytes.root);
    peak.tree = Math.max(peak.tree, bytes.tree);
    return bytes;
  };
  take();
  const timer = setInterval(take, intervalMs);
  return {
    peak: () => ({ ...peak }),
    samples: () => samples,
    now: take,
    stop: () => clearInterval(timer),
  };
}
