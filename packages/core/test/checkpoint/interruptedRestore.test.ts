import { existsSync, lstatSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type CheckpointTestBed, createCheckpointTestBed, expectOk } from "./checkpointTestBed.js";

let bed: CheckpointTestBed;
beforeEach(() => {
  bed = createCheckpointTestBed();
});
afterEach(() => bed.cleanup());

const journalOf = (gitDir: string) => path.join(gitDir, "lathe-restore.json");

describe("a restore killed half-way", () => {
  it("is finished by the next opener: tree as the target, journal and temp files gone, and reported", async () => {
    // Temp files ignored, as many projects do: the restore itself would not remove one then.
    bed.write(".gitignore", "*.tmp\n");
    bed.write("a.txt", "a at target\n");
    bed.write("src/c.txt", "c at target\n");
    bed.write("tool.sh", "#!/bin/sh\n", 0o755);
    const first = await bed.open();
    const target = expectOk(await first.snapshot("target")).commit;
    bed.write("a.txt", "a edited\n");
    bed.shell("rm src/c.txt && echo created > d.txt && chmod 644 tool.sh");
    const before = expectOk(await first.snapshot("before restoring")).commit;

    // What a kill mid-restore leaves: the journal, one file restored, the rest not yet, a temp file
    // half-written next to a file it was for, and a user's own file that only looks like one.
    writeFileSync(journalOf(first.gitDir), JSON.stringify({ target, before }));
    bed.write("a.txt", "a at target\n");
    bed.write("src/.c.txt.0123456789ab.tmp", "c at ta");
    bed.write("notes.0123456789ab.tmp", "mine\n");

    const reopened = await bed.open();

    expect(bed.read("a.txt").toString()).toBe("a at target\n");
    expect(bed.read("src/c.txt").toString()).toBe("c at target\n");
    expect(existsSync(path.join(bed.projectRoot, "d.txt"))).toBe(false);
    expect(lstatSync(path.join(bed.projectRoot, "tool.sh")).mode & 0o777).toBe(0o755);
    expect(readdirSync(path.join(bed.projectRoot, "src"))).toEqual(["c.txt"]);
    expect(bed.read("notes.0123456789ab.tmp").toString()).toBe("mine\n");
    expect(existsSync(journalOf(reopened.gitDir))).toBe(false);

    const next = expectOk(await reopened.snapshot("after"));
    expect(next.recovered).toEqual([
      `Finished a restore to checkpoint ${target} that was interrupted (2 written, 1 removed, 1 temp files cleaned up); checkpoint ${before} holds the project as it was before it.`,
    ]);
    expect(expectOk(await reopened.diff(target)).files).toEqual([]);
  });

  it("removes a journal it cannot read, and says the project may be partly restored", async () => {
    bed.write("a.txt", "a\n");
    const first = await bed.open();
    expectOk(await first.snapshot("one"));
    writeFileSync(journalOf(first.gitDir), '{"target":');

    const reopened = await bed.open();
    const next = expectOk(await reopened.snapshot("two"));

    expect(existsSync(journalOf(reopened.gitDir))).toBe(false);
    expect(next.recovered).toEqual([
      "Found an unreadable record of an interrupted restore and removed it; the project may be partly restored: compare it with `lathe checkpoints diff`.",
    ]);
  });

  it("leaves no journal behind a restore that finished", async () => {
    bed.write("a.txt", "a\n");
    const repository = await bed.open();
    const checkpoint = expectOk(await repository.snapshot("one"));
    bed.write("a.txt", "b\n");
    expectOk(await repository.restore(checkpoint.commit));
    expect(existsSync(journalOf(repository.gitDir))).toBe(false);
    expect(readdirSync(repository.gitDir).filter((name) => name.startsWith("lathe-"))).toEqual([]);
  });
});
