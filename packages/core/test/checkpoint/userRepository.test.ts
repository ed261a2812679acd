import { readdirSync, readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type CheckpointTestBed,
  createCheckpointTestBed,
  expectOk,
  filesInCheckpoint,
} from "./checkpointTestBed.js";

let bed: CheckpointTestBed;
beforeEach(() => {
  bed = createCheckpointTestBed();
});
afterEach(() => bed.cleanup());

/** Everything a careless git call could change in the user's repository. */
function userRepositoryState() {
  const dotGit = path.join(bed.projectRoot, ".git");
  return {
    status: bed.git(["status", "--porcelain=v1", "--untracked-files=all"]),
    index: readFileSync(path.join(dotGit, "index")),
    head: bed.git(["rev-parse", "HEAD"]),
    refs: bed.git(["for-each-ref"]),
    config: readFileSync(path.join(dotGit, "config"), "utf8"),
    entries: readdirSync(dotGit, { recursive: true }).map(String).sort(),
  };
}

describe("a project that is a git repository", () => {
  it("keeps the user's status, index, refs and .git contents identical", async () => {
    bed.git(["init", "-q"]);
    bed.write("committed.txt", "v1\n");
    bed.write(".gitignore", "*.log\n");
    bed.git(["add", "."]);
    bed.git(["commit", "-q", "-m", "first"]);
    bed.write("committed.txt", "v2 staged\n");
    bed.git(["add", "committed.txt"]);
    bed.write("committed.txt", "v3 unstaged\n");
    bed.write("untracked.txt", "new\n");
    bed.write("debug.log", "ignored\n");
    const before = userRepositoryState();
    expect(before.status).toBe("MM committed.txt\n?? untracked.txt\n");

    // A tool may have exported these; they must not steer the shadow's git to the user's repo.
    const exported = { GIT_DIR: process.env.GIT_DIR, GIT_INDEX_FILE: process.env.GIT_INDEX_FILE };
    process.env.GIT_DIR = path.join(bed.projectRoot, ".git");
    process.env.GIT_INDEX_FILE = path.join(bed.projectRoot, ".git", "index");
    try {
      const repository = await bed.open();
      const first = expectOk(await repository.snapshot("one"));
      bed.write("untracked.txt", "newer\n");
      expectOk(await repository.snapshot("two"));
      expectOk(await repository.diff(first.commit));
      expectOk(await repository.prune());
      expect(filesInCheckpoint(repository, first.commit)).toEqual([
        ".gitignore",
        "committed.txt",
        "untracked.txt",
      ]);
      expect(path.dirname(repository.gitDir)).toBe(path.join(realpathSync(bed.latheHome), "checkpoints"));
    } finally {
      for (const [name, value] of Object.entries(exported)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }

    const after = userRepositoryState();
    expect(after.status).toBe(before.status);
    expect(after.index.equals(before.index)).toBe(true);
    expect(after.head).toBe(before.head);
    expect(after.refs).toBe(before.refs);
    expect(after.config).toBe(before.config);
    expect(after.entries).toEqual(before.entries);
  });
});
