import { type CheckpointDiff, diffTrees } from "./checkpointDiff.js";
import { locateCheckpoints } from "./checkpointLocation.js";
import { type CheckpointOutcome, fail, succeed } from "./checkpointOutcome.js";
import { isCheckpoint, newestCheckpoint, parseCommitId, recordCheckpoint } from "./checkpointRefs.js";
import { directorySize } from "./directorySize.js";
import { prepareGitDir } from "./gitDirSetup.js";
import { serialized } from "./operationQueue.js";
import { type PruneResult, pruneCheckpoints } from "./pruning.js";
import { type RestoredFiles, restoreWorkTree } from "./restoreWorkTree.js";
import { ShadowGit, userExcludesFile } from "./shadowGit.js";
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
}

export interface SnapshotResult {
  commit: string;
  /** Files left out for being over the size limit. */
  skipped: string[];
}

export interface RestoreResult extends RestoredFiles {
  /** The checkpoint taken just before restoring: restoring it undoes the restore. */
  before: string;
}

const defaultMaxFileBytes = 2 * 1024 * 1024;
const defaultMaxTotalBytes = 1024 ** 3;

/**
 * Opens (creating on first use) the shadow repository of a project: a git dir under
 * `$LATHE_HOME/checkpoints/` whose work tree is the project. Refuses `/` and the home directory.
 */
export async function openShadowRepository(
  settings: ShadowRepositorySettings,
): Promise<CheckpointOutcome<ShadowRepository>> {
  const maxFileBytes = settings.maxFileBytes ?? defaultMaxFileBytes;
  const maxTotalBytes = settings.maxTotalBytes ?? defaultMaxTotalBytes;
  if (!isByteCount(maxFileBytes) || !isByteCount(maxTotalBytes)) {
    return fail("E_INVALID_ARGS", "maxFileBytes and maxTotalBytes must be non-negative integers.");
  }
  return guarded(async () => {
    const location = await locateCheckpoints(settings);
    if (!location.ok) return location;
    const { gitDir, projectRoot, latheHomeInProject } = location.value;
    const git = new ShadowGit(gitDir, projectRoot, await userExcludesFile());
    const prepared = await serialized(gitDir, () => prepareGitDir(git));
    if (!prepared.ok) return prepared;
    const capture = {
      maxFileBytes,
      excludedDirs: latheHomeInProject === undefined ? [] : [latheHomeInProject],
    };
    return succeed(new ShadowRepository(git, capture, maxTotalBytes));
  });
}

/**
 * Checkpoints of one project. Operations are serialized per git dir (they share one shadow index)
 * and report every failure as a value. Obtain one with `openShadowRepository`.
 */
export class ShadowRepository {
  readonly gitDir: string;
  readonly projectRoot: string;
  private readonly git: ShadowGit;
  private readonly capture: CaptureSettings;
  private readonly maxTotalBytes: number;

  constructor(git: ShadowGit, capture: CaptureSettings, maxTotalBytes: number) {
    this.git = git;
    this.gitDir = git.gitDir;
    this.projectRoot = git.workTree;
    this.capture = capture;
    this.maxTotalBytes = maxTotalBytes;
  }

  /** Records the work tree as it is now; an unchanged tree gives back the newest checkpoint. */
  snapshot(label: string): Promise<CheckpointOutcome<SnapshotResult>> {
    return this.exclusive(() => this.snapshotNow(label));
  }

  /** What changed from the checkpoint to the current work tree, seen from the checkpoint. */
  diff(commit: string): Promise<CheckpointOutcome<CheckpointDiff>> {
    return this.exclusive(async () => {
      const id = await this.knownCheckpoint(commit);
      if (!id.ok) return id;
      const now = await captureWorkTree(this.git, this.capture);
      if (!now.ok) return now;
      return diffTrees(this.git, id.value, now.value.tree);
    });
  }

  /**
   * Puts tracked files back as they were at `commit` (bytes and modes) and removes the ones created
   * since. Takes a checkpoint first, so the restore itself can be undone.
   */
  restore(commit: string): Promise<CheckpointOutcome<RestoreResult>> {
    return this.exclusive(async () => {
      const id = await this.knownCheckpoint(commit);
      if (!id.ok) return id;
      const before = await this.snapshotNow(`Before restoring ${id.value}`);
      if (!before.ok) return before;
      const restored = await restoreWorkTree(this.git, id.value, before.value.commit);
      return restored.ok ? succeed({ ...restored.value, before: before.value.commit }) : restored;
    });
  }

  /** Drops the oldest checkpoints (never the newest) until the git dir is under `maxTotalBytes`. */
  prune(): Promise<CheckpointOutcome<PruneResult>> {
    return this.exclusive(() => pruneCheckpoints(this.git, this.maxTotalBytes));
  }

  sizeBytes(): Promise<number> {
    return serialized(this.gitDir, () => directorySize(this.gitDir));
  }

  private async snapshotNow(label: string): Promise<CheckpointOutcome<SnapshotResult>> {
    const captured = await captureWorkTree(this.git, this.capture);
    if (!captured.ok) return captured;
    const { tree, skipped } = captured.value;
    const newest = await newestCheckpoint(this.git);
    if (!newest.ok) return newest;
    if (newest.value?.tree === tree) return succeed({ commit: newest.value.commit, skipped });
    const commit = await recordCheckpoint(this.git, tree, label, newest.value);
    return commit.ok ? succeed({ commit: commit.value, skipped }) : commit;
  }

  private async knownCheckpoint(commit: string): Promise<CheckpointOutcome<string>> {
    const id = parseCommitId(commit);
    if (id === undefined)
      return fail("E_INVALID_ARGS", `Not a checkpoint commit id: ${JSON.stringify(commit)}`);
    const known = await isCheckpoint(this.git, id);
    if (!known.ok) return known;
    if (!known.value) {
      return fail(
        "E_NOT_FOUND",
        `No checkpoint ${id} for ${this.projectRoot}: it was never taken or has been pruned.`,
      );
    }
    return succeed(id);
  }

  private exclusive<T>(operation: () => Promise<CheckpointOutcome<T>>): Promise<CheckpointOutcome<T>> {
    return serialized(this.gitDir, () => guarded(operation));
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
