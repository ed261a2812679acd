import { randomBytes } from "node:crypto";
import { lstat, open, readFile, unlink } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { currentProcess, type ProcessIdentity, processRunning } from "../processIdentity/processIdentity.js";
import { type CheckpointOutcome, fail, succeed } from "./checkpointOutcome.js";
import { removeGitLockFiles } from "./gitLockFiles.js";

/**
 * Lathe's own lock on a shadow git dir, held around every sequence of git commands that writes.
 * Git's `index.lock` cannot tell a running git from one killed with its process group; this file
 * names its owner, so a lock whose owner is gone is recognised as stale and git's leftovers with it.
 * It also serializes two processes on one project, which the in-process queue cannot.
 */
export const operationLockName = "lathe-operation.lock";
/** Held (briefly) by whoever clears a stale lock, so two processes never clear each other's fresh one. */
const breakerName = "lathe-operation.lock.breaking";

const holderSchema = z.object({
  pid: z.number().int().positive(),
  startTicks: z.number().int().nonnegative().optional(),
  token: z.string(),
});

/** A lock file nobody could parse is half-written; one this old was never going to be finished. */
const unreadableStaleMs = 3000;
/** Clearing a stale lock takes milliseconds; a breaker this old was left by a killed process. */
const breakerStaleMs = 10_000;
const retryDelayMs = 50;

export interface OperationLock {
  /** What was cleared to take the lock, for the user to be told; undefined when nothing was. */
  recovered: string | undefined;
  release(): Promise<void>;
}

export async function acquireOperationLock(
  gitDir: string,
  waitMs: number,
): Promise<CheckpointOutcome<OperationLock>> {
  const lockPath = path.join(gitDir, operationLockName);
  const own = currentProcess();
  const content = JSON.stringify({
    pid: own.pid,
    startTicks: own.startTicks,
    token: randomBytes(8).toString("hex"),
  });
  const deadline = Date.now() + waitMs;
  const recovered: string[] = [];
  let lastHolder: string | undefined;
  for (;;) {
    if (await createExclusive(lockPath, content)) {
      // Git locks with no live Lathe holder were left by a killed process or by a Lathe from
      // before this lock existed: no git of ours can be running on this dir now.
      const leftovers = await removeGitLockFiles(gitDir);
      if (leftovers.length > 0 && recovered.length === 0) {
        recovered.push(
          `Removed git lock files left by an interrupted checkpoint operation: ${leftovers.join(", ")}`,
        );
      }
      return succeed({
        recovered: recovered.length > 0 ? recovered.join("; ") : undefined,
        release: () => releaseLock(lockPath, content),
      });
    }
    const holder = await readHolder(lockPath);
    if (holder.state === "stale") {
      const cleared = await clearStaleLock(gitDir, lockPath, holder.raw);
      if (cleared !== undefined) recovered.push(`${cleared} ${holder.description}`);
      continue;
    }
    if (holder.state === "held") lastHolder = holder.description;
    if (Date.now() >= deadline) {
      return fail(
        "E_CHECKPOINT",
        `The checkpoint repository ${gitDir} is locked by ${lastHolder ?? "another operation"}; waited ${waitMs} ms. Try again when it has finished.`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, retryDelayMs));
  }
}

type Holder =
  | { state: "gone" }
  | { state: "held"; description: string }
  | { state: "stale"; raw: string; description: string };

async function readHolder(lockPath: string): Promise<Holder> {
  let raw: string;
  let ageMs: number;
  try {
    const stats = await lstat(lockPath);
    ageMs = Date.now() - stats.mtimeMs;
    raw = await readFile(lockPath, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { state: "gone" };
    throw error;
  }
  const parsed = holderSchema.safeParse(parseJson(raw));
  if (!parsed.success) {
    // Its writer may be between create and write: only age makes it stale.
    return ageMs > unreadableStaleMs
      ? { state: "stale", raw, description: "left by an unknown process (its lock file is unreadable)" }
      : { state: "held", description: "a process that is taking the lock" };
  }
  const identity: ProcessIdentity = { pid: parsed.data.pid, startTicks: parsed.data.startTicks };
  return processRunning(identity)
    ? { state: "held", description: `process ${identity.pid}` }
    : { state: "stale", raw, description: `left by process ${identity.pid}` };
}

/**
 * Clears a stale lock and git's leftovers under a breaker, re-reading the lock first: another
 * process may have cleared it and taken a fresh one since it was read. Returns what was done.
 */
async function clearStaleLock(
  gitDir: string,
  lockPath: string,
  staleRaw: string,
): Promise<string | undefined> {
  const breakerPath = path.join(gitDir, breakerName);
  if (!(await createExclusive(breakerPath, String(process.pid)))) {
    await removeAbandonedBreaker(breakerPath);
    await new Promise((resolve) => setTimeout(resolve, retryDelayMs));
    return undefined;
  }
  try {
    const now = await readFile(lockPath, "utf8").catch(() => undefined);
    if (now !== staleRaw) return undefined;
    const leftovers = await removeGitLockFiles(gitDir);
    await unlink(lockPath);
    return leftovers.length > 0
      ? `Removed a stale checkpoint lock and git lock files (${leftovers.join(", ")})`
      : "Removed a stale checkpoint lock";
  } finally {
    await unlink(breakerPath).catch(() => undefined);
  }
}

async function removeAbandonedBreaker(breakerPath: string): Promise<void> {
  try {
    const stats = await lstat(breakerPath);
    if (Date.now() - stats.mtimeMs > breakerStaleMs) await unlink(breakerPath);
  } catch {
    // Gone already: its owner finished.
  }
}

/** O_CREAT|O_EXCL: true when this call created the file. */
async function createExclusive(file: string, content: string): Promise<boolean> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, "wx", 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    await handle.writeFile(content);
  } finally {
    await handle.close();
  }
  return true;
}

/** Removes the lock only while it is still ours: a lock judged stale and retaken is someone else's. */
async function releaseLock(lockPath: string, content: string): Promise<void> {
  const now = await readFile(lockPath, "utf8").catch(() => undefined);
  if (now === content) await unlink(lockPath).catch(() => undefined);
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
