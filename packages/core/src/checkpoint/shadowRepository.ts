import { mkdir } from "node:fs/promises";
import { type CheckpointDiff, diffTrees } from "./checkpointDiff.js";
import { locateCheckpoints } from "./checkpointLocation.js";
import { type CheckpointOutcome, fail, succeed } from "./checkpointOutcome.js";
import { isCheckpoint, newestCheckpoint, parseCommitId, recordCheckpoint } from "./checkpointRefs.js";
import { directorySize } from "./directorySize.js";
import { setUpShadowGit } from "./gitDirSetup.js";
import { acquireOperationLock } from "./operationLock.js";
import { serialized } from "./operationQueue.js";
import { type PruneResult, pruneCheckpoints } from "./pruning.js";
import { restoreJournalExists } from "./restoreJournal.js";
import type { RestoredFiles } from "./restoreWorkTree.js";
import { finishInterruptedRestore, journaledRestore } from "./resumableRestore.js";
import {
  type RejectedChange,
  type RejectRequest,
  type ReviewedFile,
  rejectChange,
  reviewChanges,
} from "./reviewChanges.js";
import type { ShadowGit } from "./shadowGit.js";
import { type CaptureSettings, captureWorkTree } from "./workTreeCapture.js";

export interface ShadowRepositorySettings {
  latheHome: string;
  /** Absolute. */
  projectRoot: string;
  /** Files bigger than this are left out of checkpoints (default 2 MiB). */
  maxFileBytes?: number;
  /** `prune` keeps the shadow git dir under this (default 1 GiB). */
  maxTotalBytes?: number;
  /** For the refusal of the home directory as a work tree (default `os.homedir()`). */
  homeDir?: string;
  /** How long an operation waits for another process's to finish before failing (default 10 s). */
  lockWaitMs?: number;
}

/**
 * Repairs made before an operation, for the user to be told: a stale lock of a killed process
 * cleared, a restore it left half-done finished. Each is reported once, by the next snapshot,
 * restore or prune to succeed.
 */
export interface Recoveries {
  recovered: string[];
}

export interface SnapshotResult extends Recoveries {
  commit: string;
  /** Files left out for being over the size limit. */
  skipped: string[];
}

export interface RestoreResult extends RestoredFiles, Recoveries {
  /** The checkpoint taken just before restoring: restoring it undoes the restore. */
  before: string;
}

export type PruneOutcome = PruneResult & Recoveries;

export interface RejectResult extends RejectedChange, Recoveries {
  /** The checkpoint taken just before: restoring it undoes the rejection. */
  before: string;
}

const defaultMaxFileBytes = 2 * 1024 * 1024;
const defaultMaxTotalBytes = 1024 ** 3;
const defaultLockWaitMs = 10_000;

/**
 * Opens the shadow repository of a project: a git dir under `$LATHE_HOME/checkpoints/` whose work
 * tree is the project. Refuses `/` and the home directory. Runs no git unless a restore was left
 * half-done: the git dir is set up by the first operation, so a problem with git (not installed,
 * `git init` failing) is that operation's error.
 */
export async function openShadowRepository(
  settings: ShadowRepositorySettings,
): Promise<CheckpointOutcome<ShadowRepository>> {
  const maxFileBytes = settings.maxFileBytes ?? defaultMaxFileBytes;
  const maxTotalBytes = settings.maxTotalBytes ?? defaultMaxTotalBytes;
  const lockWaitMs = settings.lockWaitMs ?? defaultLockWaitMs;
  if (!isByteCount(maxFileBytes) || !isByteCount(maxTotalBytes) || !isByteCount(lockWaitMs)) {
    return fail(
      "E_INVALID_ARGS",
      "maxFileBytes, maxTotalBytes and lockWaitMs must be non-negative integers.",
    );
  }
  return guarded(async () => {
    const location = await locateCheckpoints(settings);
    if (!location.ok) return location;
    const { gitDir, projectRoot, latheHomeInProject } = location.value;
    // The operation lock is a file in the git dir, so the directory exists before any operation.
    await mkdir(gitDir, { recursive: true });
    const capture = {
      maxFileBytes,
      excludedDirs: latheHomeInProject === undefined ? [] : [latheHomeInProject],
    };
    const repository = new ShadowRepository({ gitDir, projectRoot }, capture, { maxTotalBytes, lockWaitMs });
    // Every session opens the repository: a restore killed half-way is finished before anything
    // snapshots the half-restored tree. Without one pending, no lock is taken; when finishing
    // fails (another process holds the lock for long), the next operation tries again.
    if (restoreJournalExists(gitDir)) await repository.recover();
    return succeed(repository);
  });
}

/**
 * Checkpoints of one project. Operations are serialized per git dir (they share one shadow index)
 * and report every failure as a value. Obtain one with `openShadowRepository`.
 */
export class ShadowRepository {
  readonly gitDir: string;
  readonly projectRoot: string;
  private readonly capture: CaptureSettings;
  private readonly maxTotalBytes: number;
  private readonly lockWaitMs: number;
  private pendingRecoveries: string[] = [];
  /** Set up by the first operation; after a failed set-up, the next one tries again. */
  private git?: ShadowGit;

  constructor(
    location: { gitDir: string; projectRoot: string },
    capture: CaptureSettings,
    limits: { maxTotalBytes: number; lockWaitMs: number },
  ) {
    this.gitDir = location.gitDir;
    this.projectRoot = location.projectRoot;
    this.capture = capture;
    this.maxTotalBytes = limits.maxTotalBytes;
    this.lockWaitMs = limits.lockWaitMs;
  }

  /** Records the work tree as it is now; an unchanged tree gives back the newest checkpoint. */
  snapshot(label: string): Promise<CheckpointOutcome<SnapshotResult>> {
    return this.reported(this.exclusive((git) => this.snapshotNow(git, label)));
  }

  /** What changed from the checkpoint to the current work tree, seen from the checkpoint. */
  diff(commit: string): Promise<CheckpointOutcome<CheckpointDiff>> {
    return this.exclusive(async (git) => {
      const id = await this.knownCheckpoint(git, commit);
      if (!id.ok) return id;
      const now = await captureWorkTree(git, this.capture);
      if (!now.ok) return now;
      return diffTrees(git, id.value, now.value.tree);
    });
  }

  /**
   * Puts tracked files back as they were at `commit` (bytes and modes) and removes the ones created
   * since. Takes a checkpoint first, so the restore itself can be undone.
   */
  restore(commit: string): Promise<CheckpointOutcome<RestoreResult>> {
    return this.reported(
      this.exclusive(async (git) => {
        const id = await this.knownCheckpoint(git, commit);
        if (!id.ok) return id;
        const before = await this.snapshotNow(git, `Before restoring ${id.value}`);
        if (!before.ok) return before;
        const restored = await journaledRestore(git, { target: id.value, before: before.value.commit });
        return restored.ok ? succeed({ ...restored.value, before: before.value.commit }) : restored;
      }),
    );
  }

  /** The files changed from the checkpoint to the work tree, hunk by hunk, for a review. */
  review(commit: string): Promise<CheckpointOutcome<ReviewedFile[]>> {
    return this.exclusive(async (git) => {
      const id = await this.knownCheckpoint(git, commit);
      if (!id.ok) return id;
      const now = await captureWorkTree(git, this.capture);
      if (!now.ok) return now;
      return reviewChanges(git, id.value, now.value.tree);
    });
  }

  /**
   * Takes back what a review rejected in one file (some hunks, or the whole file) to how it was at
   * `commit`. Takes a checkpoint first, so the rejection can be undone.
   */
  reject(commit: string, request: RejectRequest): Promise<CheckpointOutcome<RejectResult>> {
    return this.reported(
      this.exclusive(async (git) => {
        const id = await this.knownCheckpoint(git, commit);
        if (!id.ok) return id;
        const before = await this.snapshotNow(git, `Before rejecting changes to ${request.path}`);
        if (!before.ok) return before;
        const rejected = await rejectChange(git, id.value, before.value.commit, request);
        return rejected.ok ? succeed({ ...rejected.value, before: before.value.commit }) : rejected;
      }),
    );
  }

  /** Drops the oldest checkpoints (never the newest) until the git dir is under `maxTotalBytes`. */
  prune(): Promise<CheckpointOutcome<PruneOutcome>> {
    return this.reported(this.exclusive((git) => pruneCheckpoints(git, this.maxTotalBytes)));
  }

  /** Clears what a killed process left (a stale lock, a restore half-done); `exclusive` does the work. */
  recover(): Promise<CheckpointOutcome<void>> {
    return this.exclusive(async () => succeed(undefined));
  }

  sizeBytes(): Promise<number> {
    return serialized(this.gitDir, () => directorySize(this.gitDir));
  }

  private async snapshotNow(
    git: ShadowGit,
    label: string,
  ): Promise<CheckpointOutcome<Omit<SnapshotResult, "recovered">>> {
    const captured = await captureWorkTree(git, this.capture);
    if (!captured.ok) return captured;
    const { tree, skipped } = captured.value;
    const newest = await newestCheckpoint(git);
    if (!newest.ok) return newest;
    if (newest.value?.tree === tree) return succeed({ commit: newest.value.commit, skipped });
    const commit = await recordCheckpoint(git, tree, label, newest.value);
    return commit.ok ? succeed({ commit: commit.value, skipped }) : commit;
  }

  private async knownCheckpoint(git: ShadowGit, commit: string): Promise<CheckpointOutcome<string>> {
    const id = parseCommitId(commit);
    if (id === undefined)
      return fail("E_INVALID_ARGS", `Not a checkpoint commit id: ${JSON.stringify(commit)}`);
    const known = await isCheckpoint(git, id);
    if (!known.ok) return known;
    if (!known.value) {
      return fail(
        "E_NOT_FOUND",
        `No checkpoint ${id} for ${this.projectRoot}: it was never taken or has been pruned.`,
      );
    }
    return succeed(id);
  }

  /**
   * Runs `operation` alone: after every operation of this process on the project (the queue) and
   * under Lathe's lock on the git dir (other processes), with the git dir set up. Whatever a killed
   * process left is repaired first, and the repair remembered for the next result.
   */
  private exclusive<T>(
    operation: (git: ShadowGit) => Promise<CheckpointOutcome<T>>,
  ): Promise<CheckpointOutcome<T>> {
    return serialized(this.gitDir, () =>
      guarded(async () => {
        const lock = await acquireOperationLock(this.gitDir, this.lockWaitMs);
        if (!lock.ok) return lock;
        try {
          if (lock.value.recovered !== undefined) this.pendingRecoveries.push(lock.value.recovered);
          const git = await this.shadowGit();
          if (!git.ok) return git;
          const finished = await finishInterruptedRestore(git.value, this.capture);
          if (!finished.ok) return finished;
          if (finished.value !== undefined) this.pendingRecoveries.push(finished.value);
          return await operation(git.value);
        } finally {
          await lock.value.release();
        }
      }),
    );
  }

  /**
   * The git dir set up, once per repository object. Only `exclusive` calls it: under the queue, so
   * it never runs twice at once, and under the lock, so two processes opening a new project never
   * run `git init` on one directory at the same time.
   */
  private async shadowGit(): Promise<CheckpointOutcome<ShadowGit>> {
    if (this.git !== undefined) return succeed(this.git);
    const setUp = await setUpShadowGit(this.gitDir, this.projectRoot);
    if (setUp.ok) this.git = setUp.value;
    return setUp;
  }

  /** Hands the remembered repairs to a successful result; a failed one leaves them for the next. */
  private async reported<T>(
    outcome: Promise<CheckpointOutcome<T>>,
  ): Promise<CheckpointOutcome<T & Recoveries>> {
    const settled = await outcome;
    if (!settled.ok) return settled;
    const recovered = this.pendingRecoveries;
    this.pendingRecoveries = [];
    return succeed({ ...settled.value, recovered });
  }
}

/** Errors are values across this API: an unexpected throw (a file system error) becomes one too. */
async function guarded<T>(operation: () => Promise<CheckpointOutcome<T>>): Promise<CheckpointOutcome<T>> {
  try {
    return await operation();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return fail("E_TOOL_EXECUTION", `Checkpoint operation failed: ${message}`);
  }
}

function isByteCount(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0;
}
