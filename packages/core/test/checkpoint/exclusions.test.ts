import { existsSync, truncateSync } from "node:fs";
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

describe("files left out of checkpoints", () => {
  it("neither stores nor deletes nor rewrites ignored files", async () => {
    bed.write(".gitignore", "*.log\nbuild/\n");
    bed.write("app.ts", "v1\n");
    bed.write("old.log", "log at checkpoint\n");
    const repository = await bed.open();
    const checkpoint = expectOk(await repository.snapshot("start"));
    expect(filesInCheckpoint(repository, checkpoint.commit)).toEqual([".gitignore", "app.ts"]);

    bed.write("app.ts", "v2\n");
    bed.write("old.log", "log changed since\n");
    bed.write("new.log", "log created since\n");
    bed.write("build/out.js", "built since\n");
    const restored = expectOk(await repository.restore(checkpoint.commit));

    expect(restored).toMatchObject({ written: ["app.ts"], removed: [] });
    expect(bed.read("old.log").toString()).toBe("log changed since\n");
    expect(bed.read("new.log").toString()).toBe("log created since\n");
    expect(bed.read("build/out.js").toString()).toBe("built since\n");
  });

  it("stops storing a file once it becomes ignored, and leaves it alone on restore", async () => {
    bed.write("secret.env", "TOKEN=old\n");
    const repository = await bed.open();
    const checkpoint = expectOk(await repository.snapshot("tracked"));
    expect(filesInCheckpoint(repository, checkpoint.commit)).toEqual(["secret.env"]);

    bed.write("secret.env", "TOKEN=new\n");
    bed.write(".gitignore", "*.env\n");
    const later = expectOk(await repository.snapshot("ignored now"));
    expect(filesInCheckpoint(repository, later.commit)).toEqual([".gitignore"]);

    const restored = expectOk(await repository.restore(checkpoint.commit));
    expect(restored).toMatchObject({ written: [], removed: [".gitignore"] });
    expect(bed.read("secret.env").toString()).toBe("TOKEN=new\n");
  });

  it("skips a 1 GiB sparse file without copying it, and never deletes it", async () => {
    bed.write("small.txt", "small\n");
    bed.write("data/huge.img", "");
    truncateSync(path.join(bed.projectRoot, "data/huge.img"), 1024 ** 3);
    const repository = await bed.open();

    const checkpoint = expectOk(await repository.snapshot("with a huge file"));

    expect(checkpoint.skipped).toEqual(["data/huge.img"]);
    expect(filesInCheckpoint(repository, checkpoint.commit)).toEqual(["small.txt"]);
    expect(await repository.sizeBytes()).toBeLessThan(5 * 1024 * 1024);
    const restored = expectOk(await repository.restore(checkpoint.commit));
    expect(restored).toMatchObject({ written: [], removed: [] });
    expect(existsSync(path.join(bed.projectRoot, "data/huge.img"))).toBe(true);
  });

  it("leaves out files over maxFileBytes even when .gitignore re-includes them, glob characters and all", async () => {
    bed.write(".gitignore", "!*.dat\n");
    bed.write("we*ird [1].dat", "x".repeat(101));
    bed.write("weXXird [1].dat", "x".repeat(100));
    bed.write("line\nbreak.dat", "x".repeat(500));
    const repository = await bed.open({ maxFileBytes: 100 });

    const checkpoint = expectOk(await repository.snapshot("limits"));

    expect(checkpoint.skipped).toEqual(["line\nbreak.dat", "we*ird [1].dat"]);
    expect(filesInCheckpoint(repository, checkpoint.commit)).toEqual([".gitignore", "weXXird [1].dat"]);
  });

  it("does not rewrite a file that grew over the limit since the checkpoint", async () => {
    bed.write("grows.bin", "small at first\n");
    bed.write("other.txt", "v1\n");
    const repository = await bed.open({ maxFileBytes: 1000 });
    const checkpoint = expectOk(await repository.snapshot("small"));
    const grown = Buffer.alloc(5000, 7);
    bed.write("grows.bin", grown);
    bed.write("other.txt", "v2\n");

    const later = expectOk(await repository.snapshot("grown"));
    expect(later.skipped).toEqual(["grows.bin"]);
    expect(filesInCheckpoint(repository, later.commit)).toEqual(["other.txt"]);
    const restored = expectOk(await repository.restore(checkpoint.commit));

    expect(restored).toMatchObject({ written: ["other.txt"], removed: [] });
    expect(bed.read("grows.bin")).toEqual(grown);
    expect(bed.read("other.txt").toString()).toBe("v1\n");
  });

  it("keeps $LATHE_HOME out of the snapshots when it lies inside the project", async () => {
    bed.write("main.ts", "main\n");
    const repository = await bed.open({ latheHome: path.join(bed.projectRoot, ".lathe-home") });
    bed.write(".lathe-home/lathe.db", "session data\n");

    const first = expectOk(await repository.snapshot("one"));
    const second = expectOk(await repository.snapshot("two"));

    expect(second.commit).toBe(first.commit);
    expect(filesInCheckpoint(repository, first.commit)).toEqual(["main.ts"]);
    expectOk(await repository.restore(first.commit));
    expect(bed.read(".lathe-home/lathe.db").toString()).toBe("session data\n");
  });

  it("never deletes or rewrites a nested git repository", async () => {
    bed.write("app.ts", "v1\n");
    const repository = await bed.open();
    const checkpoint = expectOk(await repository.snapshot("before the nested repository"));
    bed.write("vendor/lib/index.js", "module.exports = 1;\n");
    bed.git(["init", "-q"], path.join(bed.projectRoot, "vendor/lib"));
    bed.git(["add", "."], path.join(bed.projectRoot, "vendor/lib"));
    bed.git(["commit", "-q", "-m", "lib"], path.join(bed.projectRoot, "vendor/lib"));
    bed.write("app.ts", "v2\n");

    expectOk(await repository.snapshot("with the nested repository"));
    const restored = expectOk(await repository.restore(checkpoint.commit));

    expect(restored).toMatchObject({ written: ["app.ts"], removed: [] });
    expect(bed.read("vendor/lib/index.js").toString()).toBe("module.exports = 1;\n");
    expect(existsSync(path.join(bed.projectRoot, "vendor/lib/.git/HEAD"))).toBe(true);
  });
});
