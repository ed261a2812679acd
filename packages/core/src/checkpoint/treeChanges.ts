import { type CheckpointOutcome, succeed } from "./checkpointOutcome.js";
import type { ShadowGit } from "./shadowGit.js";

/** One path that differs between two trees, seen from the first: "A" exists only in the second. */
export interface TreeChange {
  path: string;
  status: "A" | "D" | "M" | "T";
  fromMode: string;
  toMode: string;
  /** The object in the first tree (all zeros for "A"). */
  fromId: string;
  /** The object in the second tree (all zeros for "D"). */
  toId: string;
}

export const gitlinkMode = "160000";

/** The paths that differ between two tree-ish objects; reads no work tree file. */
export async function treeChanges(
  git: ShadowGit,
  from: string,
  to: string,
): Promise<CheckpointOutcome<TreeChange[]>> {
  const fields = await git.fields(["diff-tree", "-r", "-z", "--raw", "--no-renames", from, to]);
  if (!fields.ok) return fields;
  const changes: TreeChange[] = [];
  // Records come in pairs: ":<from mode> <to mode> <from id> <to id> <status>", then the path.
  for (let index = 0; index + 1 < fields.value.length; index += 2) {
    const [fromMode = "", toMode = "", fromId = "", toId = "", status = ""] = (fields.value[index] ?? "")
      .slice(1)
      .split(" ");
    const path = fields.value[index + 1] ?? "";
    if (status === "A" || status === "D" || status === "M" || status === "T") {
      changes.push({ path, status, fromMode, toMode, fromId, toId });
    }
  }
  return succeed(changes);
}
