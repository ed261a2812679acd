import { type CheckpointOutcome, fail, succeed } from "./checkpointOutcome.js";
import { isCheckpoint } from "./checkpointRefs.js";
import { removeLeftoverTempFiles } from "./projectEntries.js";
import {
  type RestoreJournal,
  readRestoreJournal,
  removeRestoreJournal,
  writeRestoreJournal,
} from "./restoreJournal.js";
import { type RestoredFiles, restoreWorkTree } from "./restoreWorkTree.js";
import type { ShadowGit } from "./shadowGit.js";
import { treeChanges } from "./treeChanges.js";
import { type CaptureSettings, captureWorkTree } from "./workTreeCapture.js";

/**
 * Restores `journal.target` with the journal written first. It is removed once the restore has
 * ended, failed included (the caller hears of that failure): only a killed process leaves it.
 */
export async function journaledRestore(
  git: ShadowGit,
  journal: RestoreJournal,
): Promise<CheckpointOutcome<RestoredFiles>> {
  await writeRestoreJournal(git.gitDir, journal);
  try {
    return await restoreWorkTree(git, journal.target, journal.before);
  } finally {
    await removeRestoreJournal(git.gitDir);
  }
}

/**
 * Finishes a restore a killed process left half-done: its temp files are removed, the tree as it
 * is now is captured, and the restore runs again against it (restoring is idempotent). Returns
 * what was done, for the user, or undefined when no restore was pending. The caller holds the lock.
 */
export async function finishInterruptedRestore(
  git: ShadowGit,
  capture: CaptureSettings,
): Promise<CheckpointOutcome<string | undefined>> {
  const reading = await readRestoreJournal(git.gitDir);
  if (reading.state === "none") return succeed(undefined);
  if (reading.state === "unreadable") {
    await removeRestoreJournal(git.gitDir);
    return succeed(
      "Found an unreadable record of an interrupted restore and removed it; the project may be partly restored: compare it with `lathe checkpoints diff`.",
    );
  }
  const { target, before } = reading.journal;
  const known = await isCheckpoint(git, target);
  if (!known.ok) return known;
  if (!known.value) {
    await removeRestoreJournal(git.gitDir);
    return succeed(
      `A restore to checkpoint ${target} was interrupted and cannot be finished: that checkpoint is gone. Checkpoint ${before} holds the project as it was before.`,
    );
  }
  const touched = await treeChanges(git, before, target);
  if (!touched.ok) return touched;
  const cleaned = await removeLeftoverTempFiles(
    git.workTree,
    touched.value.map((change) => change.path),
  );
  const now = await captureWorkTree(git, capture);
  if (!now.ok) return now;
  const restored = await restoreWorkTree(git, target, now.value.tree).catch((error: unknown) =>
    fail<RestoredFiles>("E_CHECKPOINT", error instanceof Error ? error.message : String(error)),
  );
  // Tried once: a journal that kept failing would fail every later snapshot with it.
  await removeRestoreJournal(git.gitDir);
  if (!restored.ok) {
    return succeed(
      `A restore to checkpoint ${target} was interrupted and could not be finished (${restored.error.message}); restore it again with \`lathe checkpoints restore\`. Checkpoint ${before} holds the project as it was before.`,
    );
  }
  const { written, removed } = restored.value;
  return succeed(
    `Finished a restore to checkpoint ${target} that was interrupted (${written.length} written, ${removed.length} removed, ${cleaned.length} temp files cleaned up); checkpoint ${before} holds the project as it was before it.`,
  );
}
