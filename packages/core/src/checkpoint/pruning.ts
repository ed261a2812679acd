import { type CheckpointOutcome, succeed } from "./checkpointOutcome.js";
import { type Checkpoint, deleteCheckpoints, listCheckpoints } from "./checkpointRefs.js";
import { directorySize } from "./directorySize.js";
import type { ShadowGit } from "./shadowGit.js";

export interface PruneResult {
  /** Dropped checkpoints, oldest first. */
  dropped: string[];
  sizeBytes: number;
}

/** What one object adds to a pack index (.idx version 2): id, CRC and offset. */
const packIndexBytesPerObject = 28;

/**
 * Drops the oldest checkpoints until the git dir fits in `maxTotalBytes`. The newest is always kept:
 * it is the state the work tree is in, and the commit a caller most likely just recorded. Repacking
 * a large repository is slow, so how many to drop is estimated from packed object sizes first and
 * repacking happens once, plus once per checkpoint the estimate fell short by.
 */
export async function pruneCheckpoints(
  git: ShadowGit,
  maxTotalBytes: number,
): Promise<CheckpointOutcome<PruneResult>> {
  let size = await directorySize(git.gitDir);
  if (size <= maxTotalBytes) {
    // Nothing to drop, but snapshots leave loose objects: pack them once git thinks there are many.
    const maintained = await git.run(["gc", "--auto", "-q"]);
    if (!maintained.ok) return maintained;
    return succeed({ dropped: [], sizeBytes: await directorySize(git.gitDir) });
  }
  // Packing alone (deltas, no loose objects, no garbage) may be enough.
  const packed = await collectGarbage(git);
  if (!packed.ok) return packed;
  size = await directorySize(git.gitDir);

  const listed = await listCheckpoints(git);
  if (!listed.ok) return listed;
  const checkpoints = listed.value;
  const dropped: string[] = [];
  let wanted = 0;
  if (size > maxTotalBytes && checkpoints.length > 1) {
    const estimate = await estimatedDropCount(git, checkpoints, size, maxTotalBytes);
    if (!estimate.ok) return estimate;
    wanted = estimate.value;
  }
  while (size > maxTotalBytes && dropped.length < checkpoints.length - 1) {
    const batch = checkpoints
      .slice(dropped.length, Math.max(wanted, dropped.length + 1))
      .map((checkpoint) => checkpoint.commit);
    const deleted = await deleteCheckpoints(git, batch);
    if (!deleted.ok) return deleted;
    dropped.push(...batch);
    const collected = await collectGarbage(git);
    if (!collected.ok) return collected;
    size = await directorySize(git.gitDir);
  }
  return succeed({ dropped, sizeBytes: size });
}

/** The fewest oldest checkpoints whose removal should bring the size under the limit (at most all but one). */
async function estimatedDropCount(
  git: ShadowGit,
  checkpoints: readonly Checkpoint[],
  size: number,
  maxTotalBytes: number,
): Promise<CheckpointOutcome<number>> {
  const all = await objectBytes(git, checkpoints);
  if (!all.ok) return all;
  // Index, refs, config, pack headers: what is not objects stays roughly the same.
  const overhead = size - all.value;
  let low = 1;
  let high = checkpoints.length - 1;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    const kept = await objectBytes(git, checkpoints.slice(middle));
    if (!kept.ok) return kept;
    if (overhead + kept.value <= maxTotalBytes) high = middle;
    else low = middle + 1;
  }
  return succeed(low);
}

/** Packed size of every object reachable from `checkpoints`. */
async function objectBytes(
  git: ShadowGit,
  checkpoints: readonly Checkpoint[],
): Promise<CheckpointOutcome<number>> {
  // Without names: a path holding a newline would otherwise split a line.
  const objects = await git.text(["rev-list", "--objects", "--no-object-names", "--stdin"], {
    input: checkpoints.map((checkpoint) => `${checkpoint.commit}\n`).join(""),
  });
  if (!objects.ok) return objects;
  const sizes = await git.text(["cat-file", "--batch-check=%(objectsize:disk)"], { input: objects.value });
  if (!sizes.ok) return sizes;
  const total = sizes.value
    .split("\n")
    .map(Number)
    .filter((bytes) => Number.isFinite(bytes) && bytes > 0)
    .reduce((sum, bytes) => sum + bytes + packIndexBytesPerObject, 0);
  return succeed(total);
}

/** Deletes everything no checkpoint ref reaches, and packs the rest. */
async function collectGarbage(git: ShadowGit): Promise<CheckpointOutcome<void>> {
  const expired = await git.run(["reflog", "expire", "--expire=now", "--all"]);
  if (!expired.ok) return expired;
  const collected = await git.run(["gc", "--prune=now", "-q"]);
  return collected.ok ? succeed(undefined) : collected;
}
