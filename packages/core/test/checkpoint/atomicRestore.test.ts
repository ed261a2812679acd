import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type CheckpointTestBed, createCheckpointTestBed, expectOk } from "./checkpointTestBed.js";

let bed: CheckpointTestBed;
let outside: string;
beforeEach(() => {
  bed = createCheckpointTestBed();
  // Beside the project, in the same temp base: what a link in the project may point at.
  outside = path.join(path.dirname(bed.projectRoot), "outside");
  mkdirSync(outside);
  writeFileSync(path.join(outside, "file.txt"), "outside original\n");
});
afterEach(() => bed.cleanup());

const entry = (file: string) => lstatSync(path.join(bed.projectRoot, file));

/** Every entry name in the project's directories: no temp file may be left. */
function projectEntries(): string[] {
  return ["", "bin", "data"].flatMap((dir) =>
    readdirSync(path.join(bed.projectRoot, dir)).map((name) => path.join(dir, name)),
  );
}

describe("restore writes each file whole", () => {
  it("gives back exact bytes, executable bits both ways and symlinks as symlinks, leaving no temp file", async () => {
    bed.write("bin/tool", "#!/bin/sh\necho tool\n", 0o755);
    bed.write("README", "plain\n", 0o644);
    bed.write("data/table.csv", "a,b\n1,2\n");
    symlinkSync("data", path.join(bed.projectRoot, "data-link"));
    symlinkSync("../README", path.join(bed.projectRoot, "bin", "readme-link"));
    const repository = await bed.open();
    const checkpoint = expectOk(await repository.snapshot("start"));

    bed.shell(
      "chmod 644 bin/tool && chmod 755 README && printf 'x' > data/table.csv && rm data-link bin/readme-link && echo not-a-link > data-link",
    );
    const restored = expectOk(await repository.restore(checkpoint.commit));

    expect(restored).toEqual({
      written: ["README", "bin/readme-link", "bin/tool", "data-link", "data/table.csv"],
      removed: [],
      refused: [],
      before: restored.before,
      recovered: [],
    });
    expect(entry("bin/tool").mode & 0o777).toBe(0o755);
    expect(entry("README").mode & 0o777).toBe(0o644);
    expect(bed.read("bin/tool").toString()).toBe("#!/bin/sh\necho tool\n");
    expect(bed.read("data/table.csv").toString()).toBe("a,b\n1,2\n");
    expect(entry("data-link").isSymbolicLink()).toBe(true);
    expect(readlinkSync(path.join(bed.projectRoot, "data-link"))).toBe("data");
    expect(readlinkSync(path.join(bed.projectRoot, "bin", "readme-link"))).toBe("../README");
    expect(projectEntries().sort()).toEqual([
      "README",
      "bin",
      "bin/readme-link",
      "bin/tool",
      "data",
      "data-link",
      "data/table.csv",
    ]);
  });

  it("replaces a link that took a file's place instead of writing through it", async () => {
    bed.write("config.json", "{}\n");
    const repository = await bed.open();
    const checkpoint = expectOk(await repository.snapshot("start"));
    bed.shell(`rm config.json && ln -s ${JSON.stringify(path.join(outside, "file.txt"))} config.json`);

    expectOk(await repository.restore(checkpoint.commit));

    expect(entry("config.json").isFile()).toBe(true);
    expect(bed.read("config.json").toString()).toBe("{}\n");
    expect(readFileSync(path.join(outside, "file.txt"), "utf8")).toBe("outside original\n");
  });

  it("turns a tracked link back into the directory it was, never writing into the link's target", async () => {
    bed.write("data/file.txt", "project data\n");
    const repository = await bed.open();
    const checkpoint = expectOk(await repository.snapshot("start"));
    bed.shell(`rm -r data && ln -s ${JSON.stringify(outside)} data`);

    const restored = expectOk(await repository.restore(checkpoint.commit));

    expect(restored).toMatchObject({ written: ["data/file.txt"], removed: ["data"], refused: [] });
    expect(entry("data").isDirectory()).toBe(true);
    expect(bed.read("data/file.txt").toString()).toBe("project data\n");
    expect(readFileSync(path.join(outside, "file.txt"), "utf8")).toBe("outside original\n");
  });

  it("refuses paths under an ignored symlinked directory: nothing written or deleted through it", async () => {
    bed.write("data/file.txt", "project data\n");
    bed.write("data/new.txt", "kept\n");
    const repository = await bed.open();
    const checkpoint = expectOk(await repository.snapshot("start"));
    bed.shell(`rm -r data && ln -s ${JSON.stringify(outside)} data && echo data > .gitignore`);
    writeFileSync(path.join(outside, "new.txt"), "the outside's own\n");

    const restored = expectOk(await repository.restore(checkpoint.commit));

    expect(restored).toMatchObject({
      written: [],
      removed: [".gitignore"],
      refused: ["data/file.txt", "data/new.txt"],
    });
    expect(entry("data").isSymbolicLink()).toBe(true);
    expect(readFileSync(path.join(outside, "file.txt"), "utf8")).toBe("outside original\n");
    expect(readFileSync(path.join(outside, "new.txt"), "utf8")).toBe("the outside's own\n");
    expect(readdirSync(outside).sort()).toEqual(["file.txt", "new.txt"]);
  });
});
