import { forEachBlob } from "./blobContents.js";
import { type CheckpointOutcome, fail, succeed } from "./checkpointOutcome.js";
import { hunkCounts, type LineHunk, lineHunks, rejectHunks } from "./lineHunks.js";
import {
  entryExists,
  entryKind,
  parentsAreDirectories,
  removeEmptiedDirectories,
  removeEntry,
  replaceEntry,
} from "./projectEntries.js";
import type { ShadowGit } from "./shadowGit.js";
import { gitlinkMode, type TreeChange, treeChanges } from "./treeChanges.js";

/** One file a review shows: what changed in it since the checkpoint, hunk by hunk. */
export interface ReviewedFile {
  path: string;
  status: "added" | "modified" | "deleted";
  /**
   * Taken or put back whole, never hunk by hunk: a file created or deleted since, binary content,
   * a symbolic link, a change of mode alone, or a side too large to compare line by line.
   */
  whole: boolean;
  added: number;
  removed: number;
  hunks: LineHunk[];
  /** The file's content now, as git names it: a rejection names it, so a file changed since is left alone. */
  version: string;
}

export interface RejectRequest {
  path: string;
  /** Indexes into the file's hunks; absent: the whole file goes back. */
  hunks?: readonly number[];
  version: string;
}

export interface RejectedChange {
  written: string[];
  removed: string[];
}

const statusNames = { A: "added", D: "deleted", M: "modified", T: "modified" } as const;
/** Past this, a side is not compared line by line (the review would not read it either). */
const maxComparedBytes = 1024 * 1024;

/** The changes between two trees, each file with its hunks; nested repositories are left out. */
export async function reviewChanges(
  git: ShadowGit,
  from: string,
  to: string,
): Promise<CheckpointOutcome<ReviewedFile[]>> {
  const changes = await treeChanges(git, from, to);
  if (!changes.ok) return changes;
  const tracked = changes.value.filter(
    (change) => change.fromMode !== gitlinkMode && change.toMode !== gitlinkMode,
  );
  const sides = await bothSides(git, tracked);
  if (!sides.ok) return sides;
  return succeed(
    tracked.map((change) => {
      const texts = comparable(change, sides.value);
      const hunks = texts ? lineHunks(texts.before, texts.after) : [];
      const counts = texts ? hunkCounts(hunks) : { added: 0, removed: 0 };
      return {
        path: change.path,
        status: statusNames[change.status],
        whole: texts === undefined || change.status !== "M",
        ...counts,
        hunks,
        version: change.toId,
      };
    }),
  );
}

/**
 * Puts back, in the work tree, the changes to one file that a review rejected: the chosen hunks
 * as the checkpoint had those lines, or the whole file as the checkpoint had it (a file created
 * since is removed). `current` is a tree captured just now; a file whose content is no longer the
 * `version` the review saw is refused, as is one behind a symbolic link.
 */
export async function rejectChange(
  git: ShadowGit,
  target: string,
  current: string,
  request: RejectRequest,
): Promise<CheckpointOutcome<RejectedChange>> {
  const root = git.workTree;
  const changes = await treeChanges(git, target, current);
  if (!changes.ok) return changes;
  const change = changes.value.find((candidate) => candidate.path === request.path);
  if (!change) return fail("E_CHECKPOINT", `${request.path} has no change since the checkpoint to reject.`);
  if (change.toId !== request.version) {
    return fail("E_STALE_FILE", `${request.path} changed since it was reviewed: review it again.`);
  }
  if (change.fromMode === gitlinkMode || change.toMode === gitlinkMode) {
    return fail("E_CHECKPOINT", `${request.path} is a nested repository; its changes are not taken back.`);
  }
  if (!(await parentsAreDirectories(root, change.path))) {
    return fail("E_PATH_TRAVERSAL", `${request.path} lies behind a symbolic link: it is left as it is.`);
  }
  if (request.hunks !== undefined) {
    if (change.status !== "M") {
      return fail("E_INVALID_ARGS", `${request.path} was ${statusNames[change.status]}: reject it whole.`);
    }
    const sides = await bothSides(git, [change]);
    if (!sides.ok) return sides;
    const texts = comparable(change, sides.value);
    const kind = entryKind(change.toMode);
    if (!texts || kind === undefined)
      return fail("E_INVALID_ARGS", `${request.path} is rejected whole only.`);
    const count = lineHunks(texts.before, texts.after).length;
    const outside = request.hunks.find((index) => !Number.isInteger(index) || index < 0 || index >= count);
    if (outside !== undefined) return fail("E_INVALID_ARGS", `${request.path} has no hunk ${outside}.`);
    const content = rejectHunks(texts.before, texts.after, new Set(request.hunks));
    await replaceEntry(root, change.path, kind, Buffer.from(content, "utf8"));
    return succeed({ written: [change.path], removed: [] });
  }
  if (change.status === "A") {
    await removeEntry(root, change.path);
    await removeEmptiedDirectories(root, [change.path]);
    return succeed({ written: [], removed: [change.path] });
  }
  const kind = entryKind(change.fromMode);
  if (kind === undefined)
    return fail("E_CHECKPOINT", `${request.path} cannot be put back (mode ${change.fromMode}).`);
  if (change.status === "D" && (await entryExists(root, change.path))) {
    return fail("E_STALE_FILE", `${request.path} exists again: review it again.`);
  }
  const written = await forEachBlob(git, [{ id: change.fromId }], (_, content) =>
    replaceEntry(root, change.path, kind, content),
  );
  return written.ok ? succeed({ written: [change.path], removed: [] }) : written;
}

const zeroId = /^0+$/;

/** The stored content of each side of the changes, by object id. */
async function bothSides(
  git: ShadowGit,
  changes: readonly TreeChange[],
): Promise<CheckpointOutcome<Map<string, Buffer>>> {
  const ids = new Set<string>();
  for (const change of changes) {
    for (const id of [change.fromId, change.toId]) if (!zeroId.test(id)) ids.add(id);
  }
  const contents = new Map<string, Buffer>();
  const read = await forEachBlob(
    git,
    [...ids].map((id) => ({ id })),
    async (item, content) => {
      contents.set(item.id, content);
    },
  );
  return read.ok ? succeed(contents) : read;
}

/** Both sides as text, when the change can be taken line by line; undefined otherwise. */
function comparable(
  change: TreeChange,
  contents: ReadonlyMap<string, Buffer>,
): { before: string; after: string } | undefined {
  const kinds = [change.fromMode, change.toMode].filter((mode) => !zeroId.test(mode)).map(entryKind);
  if (kinds.some((kind) => kind === undefined || kind === "symlink")) return undefined;
  const sides = [change.fromId, change.toId].map((id) =>
    zeroId.test(id) ? Buffer.alloc(0) : contents.get(id),
  );
  if (sides.some((side) => side === undefined || side.length > maxComparedBytes || isBinary(side))) {
    return undefined;
  }
  const [before, after] = sides.map((side) => side!.toString("utf8"));
  return { before: before!, after: after! };
}

/** As git decides: a NUL byte in the first 8000 bytes. */
function isBinary(content: Buffer): boolean {
  return content.subarray(0, 8000).includes(0);
}
