import { existsSync, statSync, symlinkSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type CheckpointTestBed, createCheckpointTestBed, expectOk } from "./checkpointTestBed.js";

let bed: CheckpointTestBed;
beforeEach(() => {
  bed = createCheckpointTestBed();
});
afterEach(() => bed.cleanup());

const numbered = (count: number, change: Record<number, string> = {}) =>
  Array.from({ length: count }, (_, index) => `${change[index + 1] ?? `line ${index + 1}`}\n`).join("");

describe("reviewing the changes since a checkpoint", () => {
  it("lists each changed file with its hunks and counts; created, deleted and binary files go whole", async () => {
    bed.write("code.ts", numbered(30));
    bed.write("gone.txt", "bye\n");
    bed.write("image.bin", Buffer.from([0, 1, 2]));
    const repository = await bed.open();
    const checkpoint = expectOk(await repository.snapshot("start"));
    bed.write("code.ts", numbered(30, { 3: "three", 20: "twenty" }));
    bed.shell("rm gone.txt");
    bed.write("image.bin", Buffer.from([0, 1, 3]));
    bed.write("new/fresh.txt", "hello\n");

    const files = expectOk(await repository.review(checkpoint.commit));
    expect(
      files.map(({ path, status, whole, added, removed, hunks }) => [
        path,
        status,
        whole,
        added,
        removed,
        hunks.length,
      ]),
    ).toEqual([
      ["code.ts", "modified", false, 2, 2, 2],
      ["gone.txt", "deleted", true, 0, 1, 1],
      ["image.bin", "modified", true, 0, 0, 0],
      ["new/fresh.txt", "added", true, 1, 0, 1],
    ]);
    expect(files[0]!.hunks[0]!.lines).toEqual([
      " line 1",
      " line 2",
      "-line 3",
      "+three",
      " line 4",
      " line 5",
      " line 6",
    ]);
    expect(files[0]!.version).toMatch(/^[0-9a-f]{40,64}$/);
  });

  it("rejects one hunk of a file, keeps the other, and the checkpoint it took undoes it", async () => {
    bed.write("code.ts", numbered(30));
    const repository = await bed.open();
    const checkpoint = expectOk(await repository.snapshot("start"));
    bed.write("code.ts", numbered(30, { 3: "three", 20: "twenty" }));
    const [file] = expectOk(await repository.review(checkpoint.commit));

    const rejected = expectOk(
      await repository.reject(checkpoint.commit, { path: "code.ts", hunks: [1], version: file!.version }),
    );
    expect(rejected.written).toEqual(["code.ts"]);
    expect(bed.read("code.ts").toString()).toBe(numbered(30, { 3: "three" }));

    expectOk(await repository.restore(rejected.before));
    expect(bed.read("code.ts").toString()).toBe(numbered(30, { 3: "three", 20: "twenty" }));
  });

  it("brings back a file deleted since, removes one created since", async () => {
    bed.write("gone.txt", "bye\n", 0o755);
    const repository = await bed.open();
    const checkpoint = expectOk(await repository.snapshot("start"));
    bed.shell("rm gone.txt");
    bed.write("new/fresh.txt", "hello\n");
    const files = expectOk(await repository.review(checkpoint.commit));
    const version = (file: string) => files.find((entry) => entry.path === file)!.version;

    expectOk(await repository.reject(checkpoint.commit, { path: "gone.txt", version: version("gone.txt") }));
    expect(bed.read("gone.txt").toString()).toBe("bye\n");
    expect(statSync(path.join(bed.projectRoot, "gone.txt")).mode & 0o111).not.toBe(0);
    expectOk(
      await repository.reject(checkpoint.commit, {
        path: "new/fresh.txt",
        version: version("new/fresh.txt"),
      }),
    );
    expect(existsSync(path.join(bed.projectRoot, "new"))).toBe(false);
    expect(expectOk(await repository.review(checkpoint.commit))).toEqual([]);
  });

  it.each([
    [
      "a file changed since the review",
      "E_STALE_FILE",
      async () => bed.write("code.ts", "other\n"),
      undefined,
    ],
    ["a hunk that is not there", "E_INVALID_ARGS", async () => {}, [5]],
    ["hunks of a created file", "E_INVALID_ARGS", async () => {}, [0]],
  ] as const)("refuses %s and changes nothing", async (what, code, change, hunks) => {
    bed.write("code.ts", numbered(10));
    const repository = await bed.open();
    const checkpoint = expectOk(await repository.snapshot("start"));
    bed.write("code.ts", numbered(10, { 5: "five" }));
    bed.write("fresh.txt", "new\n");
    const files = expectOk(await repository.review(checkpoint.commit));
    const target = what === "hunks of a created file" ? "fresh.txt" : "code.ts";
    const version = files.find((file) => file.path === target)!.version;
    await change();
    const before = bed.read("code.ts").toString();
    const outcome = await repository.reject(checkpoint.commit, { path: target, hunks, version });
    expect(outcome.ok ? undefined : outcome.error.code).toBe(code);
    expect(bed.read("code.ts").toString()).toBe(before);
    expect(bed.read("fresh.txt").toString()).toBe("new\n");
  });

  it("leaves a file behind a symbolic link as it is", async () => {
    bed.write("dir/a.txt", "a\n");
    const repository = await bed.open();
    const checkpoint = expectOk(await repository.snapshot("start"));
    bed.shell("rm -r dir && mkdir outside");
    const [file] = expectOk(await repository.review(checkpoint.commit));
    expect(file).toMatchObject({ path: "dir/a.txt", status: "deleted" });
    // Between the review and the rejection, the folder comes back as a link to outside the project.
    symlinkSync(path.join(bed.projectRoot, "outside"), path.join(bed.projectRoot, "dir"));
    const outcome = await repository.reject(checkpoint.commit, { path: "dir/a.txt", version: file!.version });
    expect(outcome.ok ? undefined : outcome.error.code).toBe("E_PATH_TRAVERSAL");
    expect(existsSync(path.join(bed.projectRoot, "outside", "a.txt"))).toBe(false);
  });
});
