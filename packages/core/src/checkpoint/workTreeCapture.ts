import { type CheckpointOutcome, succeed } from "./checkpointOutcome.js";
import { oversizedFiles } from "./largeFiles.js";
import { excludePathspec, pathspecInput } from "./pathspecs.js";
import type { ShadowGit } from "./shadowGit.js";

export interface CapturedTree {
  tree: string;
  /** Files left out for being over the size limit, sorted. */
  skipped: string[];
}

export interface CaptureSettings {
  maxFileBytes: number;
  /** Directories never captured, relative to the work tree (`$LATHE_HOME` when inside the project). */
  excludedDirs: readonly string[];
}

/**
 * Stages the work tree into the shadow index and writes it as a tree object: every file git does
 * not ignore, minus the oversized ones. Writes no commit, so `diff` can compare against "now"
 * without adding a checkpoint.
 */
export async function captureWorkTree(
  git: ShadowGit,
  settings: CaptureSettings,
): Promise<CheckpointOutcome<CapturedTree>> {
  const scope = [".", ...settings.excludedDirs.map(excludePathspec)];
  const candidates = await git.fields([
    "ls-files",
    "-z",
    "--cached",
    "--others",
    "--exclude-standard",
    "--",
    ...scope,
  ]);
  if (!candidates.ok) return candidates;
  const skipped = await oversizedFiles(git.workTree, [...new Set(candidates.value)], settings.maxFileBytes);

  // Ignore rules do not apply to files already in an index, so a file that grew too big or became
  // ignored since the last snapshot has to leave the shadow index explicitly.
  const trackedIgnored = await git.fields(["ls-files", "-z", "--cached", "--ignored", "--exclude-standard"]);
  if (!trackedIgnored.ok) return trackedIgnored;
  const untrack = [...skipped, ...trackedIgnored.value];
  if (untrack.length > 0) {
    // Plumbing on exact paths: `rm --cached` would refuse files whose content differs from HEAD.
    const removed = await git.run(["update-index", "--force-remove", "-z", "--stdin"], {
      input: untrack.map((file) => `${file}\0`).join(""),
    });
    if (!removed.ok) return removed;
  }

  const added = await git.run(["add", "-A", "--pathspec-from-file=-", "--pathspec-file-nul"], {
    input: pathspecInput([...scope, ...skipped.map(excludePathspec)]),
  });
  if (!added.ok) return added;
  const tree = await git.text(["write-tree"]);
  if (!tree.ok) return tree;
  return succeed({ tree: tree.value.trim(), skipped });
}
