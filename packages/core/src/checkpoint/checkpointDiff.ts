import { type CheckpointOutcome, succeed } from "./checkpointOutcome.js";
import type { ShadowGit } from "./shadowGit.js";
import { treeChanges } from "./treeChanges.js";

export interface CheckpointDiff {
  /** Seen from the checkpoint: a file created since is "added". */
  files: { path: string; status: "added" | "modified" | "deleted" }[];
  /** Unified diff; binary files appear as "Binary files … differ". */
  patch: string;
}

const statusNames = { A: "added", D: "deleted", M: "modified", T: "modified" } as const;

export async function diffTrees(
  git: ShadowGit,
  from: string,
  to: string,
): Promise<CheckpointOutcome<CheckpointDiff>> {
  const changes = await treeChanges(git, from, to);
  if (!changes.ok) return changes;
  // Plumbing diff: no pager, colour, external diff or textconv from any config.
  const patch = await git.text(["diff-tree", "-r", "-p", "--no-renames", from, to]);
  if (!patch.ok) return patch;
  return succeed({
    files: changes.value.map((change) => ({ path: change.path, status: statusNames[change.status] })),
    patch: patch.value,
  });
}
