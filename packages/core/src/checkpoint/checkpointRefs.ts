import { type CheckpointOutcome, succeed } from "./checkpointOutcome.js";
import type { ShadowGit } from "./shadowGit.js";

/**
 * Every checkpoint is a parentless commit kept alive by its own ref. Chaining commits would keep
 * each pruned snapshot reachable through its successor, so deleting refs could free nothing;
 * packing still deltas the blobs of one path across snapshots, parents or not.
 */
const refPrefix = "refs/lathe/";

export interface Checkpoint {
  commit: string;
  tree: string;
  /** Committer time, seconds; strictly increasing from one checkpoint to the next. */
  time: number;
}

const listFormat = "%(objectname) %(tree) %(committerdate:unix)";

/** All checkpoints, oldest first. */
export async function listCheckpoints(git: ShadowGit): Promise<CheckpointOutcome<Checkpoint[]>> {
  const listed = await git.text([
    "for-each-ref",
    "--sort=committerdate",
    `--format=${listFormat}`,
    refPrefix,
  ]);
  return listed.ok ? succeed(parseCheckpoints(listed.value)) : listed;
}

export async function newestCheckpoint(git: ShadowGit): Promise<CheckpointOutcome<Checkpoint | undefined>> {
  const listed = await git.text([
    "for-each-ref",
    "--sort=-committerdate",
    "--count=1",
    `--format=${listFormat}`,
    refPrefix,
  ]);
  return listed.ok ? succeed(parseCheckpoints(listed.value)[0]) : listed;
}

/**
 * Commits `tree` as a new checkpoint. Its time is pushed one second past the newest checkpoint's
 * when needed: commit times are the only order pruning has, and git keeps whole seconds.
 */
export async function recordCheckpoint(
  git: ShadowGit,
  tree: string,
  label: string,
  newest: Checkpoint | undefined,
): Promise<CheckpointOutcome<string>> {
  const now = Math.floor(Date.now() / 1000);
  const time = newest === undefined ? now : Math.max(now, newest.time + 1);
  const date = `@${time} +0000`;
  const message = label.replaceAll("\0", "").trim() || "checkpoint";
  const committed = await git.text(["commit-tree", tree, "-F", "-"], {
    input: `${message}\n`,
    env: { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
  });
  if (!committed.ok) return committed;
  const commit = committed.value.trim();
  const referenced = await git.run(["update-ref", `${refPrefix}${commit}`, commit]);
  return referenced.ok ? succeed(commit) : referenced;
}

export async function isCheckpoint(git: ShadowGit, commit: string): Promise<CheckpointOutcome<boolean>> {
  const found = await git.run(["rev-parse", "--verify", "--quiet", `${refPrefix}${commit}`], {
    okExitCodes: [1],
  });
  return found.ok ? succeed(found.value.exitCode === 0) : found;
}

export async function deleteCheckpoints(
  git: ShadowGit,
  commits: readonly string[],
): Promise<CheckpointOutcome<void>> {
  const deleted = await git.run(["update-ref", "--stdin"], {
    input: commits.map((commit) => `delete ${refPrefix}${commit}\n`).join(""),
  });
  return deleted.ok ? succeed(undefined) : deleted;
}

function parseCheckpoints(output: string): Checkpoint[] {
  return output
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      const [commit = "", tree = "", time = "0"] = line.split(" ");
      return { commit, tree, time: Number(time) };
    });
}

/** A full object id (SHA-1 or SHA-256), lower-cased; undefined for anything else. */
export function parseCommitId(commit: string): string | undefined {
  const id = commit.trim().toLowerCase();
  return /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(id) ? id : undefined;
}
