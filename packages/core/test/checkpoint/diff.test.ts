import { execFileSync } from "node:child_process";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type CheckpointTestBed, createCheckpointTestBed, expectOk } from "./checkpointTestBed.js";

let bed: CheckpointTestBed;
beforeEach(() => {
  bed = createCheckpointTestBed();
});
afterEach(() => bed.cleanup());

describe("diff", () => {
  it("lists what was added, modified and deleted since the checkpoint, with a patch", async () => {
    bed.write("keep.txt", "unchanged\n");
    bed.write("edit.txt", "alpha\nbeta\ngamma\n");
    bed.write("gone.txt", "bye\n");
    bed.write("mode.sh", "#!/bin/sh\n", 0o644);
    const repository = await bed.open();
    const checkpoint = expectOk(await repository.snapshot("start"));
    bed.write("edit.txt", "alpha\nBETA\ngamma\n");
    bed.shell("rm gone.txt && chmod +x mode.sh");
    bed.write("sub/fresh.txt", "hello\n");

    const diff = expectOk(await repository.diff(checkpoint.commit));

    expect(diff.files).toEqual([
      { path: "edit.txt", status: "modified" },
      { path: "gone.txt", status: "deleted" },
      { path: "mode.sh", status: "modified" },
      { path: "sub/fresh.txt", status: "added" },
    ]);
    expect(diff.patch).toContain("diff --git a/edit.txt b/edit.txt\n");
    expect(diff.patch).toContain("\n-beta\n+BETA\n");
    expect(diff.patch).toContain("\n-bye\n");
    expect(diff.patch).toContain("new file mode 100644");
    expect(diff.patch).toContain("+hello\n");
    expect(diff.patch).toContain("old mode 100644\nnew mode 100755\n");
    expect(diff.patch).not.toContain("keep.txt");
  });

  it("diffs without recording a checkpoint, and is empty when nothing changed", async () => {
    bed.write("a.txt", "a\n");
    const repository = await bed.open();
    const checkpoint = expectOk(await repository.snapshot("start"));
    bed.write("a.txt", "b\n");
    expect(expectOk(await repository.diff(checkpoint.commit)).files).toHaveLength(1);
    const refs = execFileSync(
      "git",
      ["--git-dir", repository.gitDir, "for-each-ref", "--format=%(objectname)"],
      {
        encoding: "utf8",
      },
    );
    expect(refs).toBe(`${checkpoint.commit}\n`);

    bed.write("a.txt", "a\n");
    expect(expectOk(await repository.diff(checkpoint.commit))).toEqual({ files: [], patch: "" });
  });
});
