import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type CheckpointTestBed, createCheckpointTestBed, expectOk } from "./checkpointTestBed.js";

let bed: CheckpointTestBed;
const children: ChildProcess[] = [];
beforeEach(() => {
  bed = createCheckpointTestBed();
});
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  bed.cleanup();
});

/** Start time of a process in clock ticks after boot, read here independently of the lock. */
function startTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
}

/** A real process killed with SIGKILL and reaped, as after `kill -9` of a process group. */
async function killedProcess(): Promise<{ pid: number; ticks: number }> {
  const child = spawn("sleep", ["30"], { stdio: "ignore" });
  children.push(child);
  await new Promise((resolve) => child.once("spawn", resolve));
  const pid = child.pid ?? 0;
  const ticks = startTicks(pid);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
  return { pid, ticks };
}

function writeLock(gitDir: string, holder: { pid: number; startTicks: number }): string {
  const lockPath = path.join(gitDir, "lathe-operation.lock");
  writeFileSync(lockPath, JSON.stringify({ ...holder, token: "0123456789abcdef" }));
  return lockPath;
}

function leaveGitLocks(gitDir: string): void {
  writeFileSync(path.join(gitDir, "index.lock"), "");
  mkdirSync(path.join(gitDir, "refs", "lathe"), { recursive: true });
  writeFileSync(path.join(gitDir, "refs", "lathe", "0123.lock"), "");
}

describe("the checkpoint lock after a crash", () => {
  it("clears a lock whose owner was killed, with git's index and ref locks, and says so", async () => {
    bed.write("a.txt", "a\n");
    const repository = await bed.open();
    const dead = await killedProcess();
    const lockPath = writeLock(repository.gitDir, { pid: dead.pid, startTicks: dead.ticks });
    leaveGitLocks(repository.gitDir);

    const taken = expectOk(await repository.snapshot("after the crash"));

    expect(taken.recovered).toEqual([
      `Removed a stale checkpoint lock and git lock files (index.lock, refs/lathe/0123.lock) left by process ${dead.pid}`,
    ]);
    expect(existsSync(path.join(repository.gitDir, "index.lock"))).toBe(false);
    expect(existsSync(path.join(repository.gitDir, "refs", "lathe", "0123.lock"))).toBe(false);
    expect(existsSync(lockPath)).toBe(false);
    // Reported once: the next snapshot has nothing to tell.
    bed.write("a.txt", "b\n");
    expect(expectOk(await repository.snapshot("next")).recovered).toEqual([]);
  });

  it("takes a lock whose pid was reused by another process for stale", async () => {
    const repository = await bed.open();
    writeLock(repository.gitDir, { pid: process.pid, startTicks: startTicks(process.pid) + 1 });

    const taken = expectOk(await repository.snapshot("pid reused"));

    expect(taken.recovered).toEqual([`Removed a stale checkpoint lock left by process ${process.pid}`]);
  });

  it("clears an unreadable lock file once it is a few seconds old, and waits on a fresh one", async () => {
    const repository = await bed.open({ lockWaitMs: 200 });
    const lockPath = path.join(repository.gitDir, "lathe-operation.lock");
    writeFileSync(lockPath, '{"pid":');

    const waited = await repository.snapshot("fresh garbage");
    expect(waited.ok ? undefined : waited.error.code).toBe("E_CHECKPOINT");

    const past = new Date(Date.now() - 60_000);
    utimesSync(lockPath, past, past);
    const taken = expectOk(await repository.snapshot("old garbage"));
    expect(taken.recovered).toEqual([
      "Removed a stale checkpoint lock left by an unknown process (its lock file is unreadable)",
    ]);
  });

  it("recovers git lock files left without a Lathe lock (by a version before it, or a killed git)", async () => {
    bed.write("a.txt", "a\n");
    const repository = await bed.open();
    leaveGitLocks(repository.gitDir);

    const taken = expectOk(await repository.snapshot("legacy"));

    expect(taken.recovered).toEqual([
      "Removed git lock files left by an interrupted checkpoint operation: index.lock, refs/lathe/0123.lock",
    ]);
    expect(existsSync(path.join(repository.gitDir, "index.lock"))).toBe(false);
  });

  it("waits for a live holder, then fails with a coded error, touching none of its files", async () => {
    const repository = await bed.open({ lockWaitMs: 300 });
    const lockPath = writeLock(repository.gitDir, { pid: process.pid, startTicks: startTicks(process.pid) });
    writeFileSync(path.join(repository.gitDir, "index.lock"), "");
    const started = Date.now();

    const refused = await repository.snapshot("while held");

    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(refused.ok ? undefined : refused.error).toEqual({
      code: "E_CHECKPOINT",
      message: `The checkpoint repository ${repository.gitDir} is locked by process ${process.pid}; waited 300 ms. Try again when it has finished.`,
      retryable: false,
      hint: expect.any(String),
    });
    expect(existsSync(lockPath)).toBe(true);
    expect(existsSync(path.join(repository.gitDir, "index.lock"))).toBe(true);
  });

  it("goes ahead once a live holder releases the lock in time", async () => {
    bed.write("a.txt", "a\n");
    const repository = await bed.open({ lockWaitMs: 10_000 });
    const lockPath = writeLock(repository.gitDir, { pid: process.pid, startTicks: startTicks(process.pid) });
    setTimeout(() => unlinkSync(lockPath), 200);

    const taken = expectOk(await repository.snapshot("after release"));

    expect(taken.recovered).toEqual([]);
    expect(existsSync(lockPath)).toBe(false);
  });
});
