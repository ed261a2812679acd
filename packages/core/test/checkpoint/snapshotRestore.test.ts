import { randomBytes } from "node:crypto";
import { existsSync, lstatSync, readlinkSync, symlinkSync } from "node:fs";
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

const modeOf = (file: string) => lstatSync(path.join(bed.projectRoot, file)).mode & 0o777;

describe("snapshot and restore", () => {
  it("writes back edited and deleted files byte for byte, modes included, and removes created ones", async () => {
    const text = Buffer.from("line one\nline two\r\nno newline at end");
    const binary = Buffer.concat([Buffer.from([0, 255, 0, 13, 10, 26]), randomBytes(64 * 1024)]);
    const script = Buffer.from("#!/bin/sh\necho hello\n");
    const doomed = Buffer.from("I will be rm'd\n");
    const modeOnly = Buffer.from("#!/bin/sh\nexit 0\n");
    bed.write("src/notes.txt", text);
    bed.write("assets/blob.bin", binary);
    bed.write("bin/run.sh", script, 0o755);
    bed.write("docs/deep/doomed.md", doomed);
    bed.write("tools/check.sh", modeOnly, 0o755);
    symlinkSync("src/notes.txt", path.join(bed.projectRoot, "link"));
    const repository = await bed.open();
    const checkpoint = expectOk(await repository.snapshot("before edits"));
    expect(checkpoint.skipped).toEqual([]);

    bed.write("src/notes.txt", "rewritten\n");
    bed.write("assets/blob.bin", randomBytes(1000));
    bed.write("bin/run.sh", "#!/bin/sh\necho changed\n", 0o644);
    bed.shell("rm docs/deep/doomed.md && chmod 644 tools/check.sh && rm link && ln -s bin/run.sh link");
    bed.write("new/dir/created.ts", "export {};\n");

    const restored = expectOk(await repository.restore(checkpoint.commit));

    expect(bed.read("src/notes.txt")).toEqual(text);
    expect(bed.read("assets/blob.bin")).toEqual(binary);
    expect(bed.read("bin/run.sh")).toEqual(script);
    expect(modeOf("bin/run.sh")).toBe(0o755);
    expect(bed.read("docs/deep/doomed.md")).toEqual(doomed);
    expect(bed.read("tools/check.sh")).toEqual(modeOnly);
    expect(modeOf("tools/check.sh")).toBe(0o755);
    expect(readlinkSync(path.join(bed.projectRoot, "link"))).toBe("src/notes.txt");
    expect(existsSync(path.join(bed.projectRoot, "new"))).toBe(false);
    expect(restored.written).toEqual([
      "assets/blob.bin",
      "bin/run.sh",
      "docs/deep/doomed.md",
      "link",
      "src/notes.txt",
      "tools/check.sh",
    ]);
    expect(restored.removed).toEqual(["new/dir/created.ts"]);
    expect(restored.before).not.toBe(checkpoint.commit);
  });

  it("can undo a restore by restoring the checkpoint it took first", async () => {
    bed.write("a.txt", "first\n");
    const repository = await bed.open();
    const first = expectOk(await repository.snapshot("first"));
    bed.write("a.txt", "second\n");
    bed.write("b.txt", "only in second\n");

    const restored = expectOk(await repository.restore(first.commit));
    expect(bed.read("a.txt").toString()).toBe("first\n");
    expect(existsSync(path.join(bed.projectRoot, "b.txt"))).toBe(false);

    const undone = expectOk(await repository.restore(restored.before));
    expect(bed.read("a.txt").toString()).toBe("second\n");
    expect(bed.read("b.txt").toString()).toBe("only in second\n");
    expect(undone).toMatchObject({ written: ["a.txt", "b.txt"], removed: [] });
  });

  it("restores raw bytes even when .gitattributes asks for line-ending conversion or filters", async () => {
    const lf = Buffer.from("one\ntwo\n");
    const crlf = Buffer.from("one\r\ntwo\r\n");
    bed.write(".gitattributes", "* text eol=crlf\n*.dat filter=lfs diff=lfs merge=lfs -text\n");
    bed.write("lf.txt", lf);
    bed.write("crlf.txt", crlf);
    bed.write("data.dat", lf);
    const repository = await bed.open();
    const checkpoint = expectOk(await repository.snapshot("attributes"));
    for (const file of ["lf.txt", "crlf.txt", "data.dat"]) bed.write(file, "changed\n");

    expectOk(await repository.restore(checkpoint.commit));

    expect(bed.read("lf.txt")).toEqual(lf);
    expect(bed.read("crlf.txt")).toEqual(crlf);
    expect(bed.read("data.dat")).toEqual(lf);
  });

  it("handles a file that became a directory and a directory that became a file", async () => {
    bed.write("thing", "a file\n");
    bed.write("folder/inner.txt", "inside\n");
    const repository = await bed.open();
    const checkpoint = expectOk(await repository.snapshot("shapes"));
    bed.shell("rm thing && mkdir thing && echo x > thing/child && rm -r folder && echo y > folder");

    const restored = expectOk(await repository.restore(checkpoint.commit));

    expect(bed.read("thing").toString()).toBe("a file\n");
    expect(bed.read("folder/inner.txt").toString()).toBe("inside\n");
    expect(restored).toMatchObject({
      written: ["folder/inner.txt", "thing"],
      removed: ["folder", "thing/child"],
    });
  });

  it("reuses the newest checkpoint when nothing changed, and stores names with glob characters", async () => {
    bed.write("we*ird [1].txt", "star\n");
    bed.write(" leading and trailing ", "spaces\n");
    const repository = await bed.open();
    const first = expectOk(await repository.snapshot("one"));
    const second = expectOk(await repository.snapshot("two"));
    expect(second.commit).toBe(first.commit);
    expect(filesInCheckpoint(repository, first.commit)).toEqual([" leading and trailing ", "we*ird [1].txt"]);

    bed.write("we*ird [1].txt", "changed\n");
    expect(expectOk(await repository.snapshot("three")).commit).not.toBe(first.commit);
    const restored = expectOk(await repository.restore(first.commit));
    expect(restored.written).toEqual(["we*ird [1].txt"]);
    expect(bed.read("we*ird [1].txt").toString()).toBe("star\n");
  });

  it("snapshots an empty project and restoring to it removes what was created", async () => {
    const repository = await bed.open();
    const empty = expectOk(await repository.snapshot("empty"));
    bed.write("a/b/c.txt", "c\n");
    const restored = expectOk(await repository.restore(empty.commit));
    expect(restored.removed).toEqual(["a/b/c.txt"]);
    expect(existsSync(path.join(bed.projectRoot, "a"))).toBe(false);
    expect(existsSync(bed.projectRoot)).toBe(true);
  });

  it("rejects unknown and malformed commits", async () => {
    const repository = await bed.open();
    const unknown = await repository.restore("0123456789abcdef0123456789abcdef01234567");
    expect(unknown.ok ? undefined : unknown.error.code).toBe("E_NOT_FOUND");
    const malformed = await repository.diff("HEAD~1");
    expect(malformed.ok ? undefined : malformed.error.code).toBe("E_INVALID_ARGS");
  });
});
