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

describe("concurrent operations", () => {
  it("runs two snapshots at once without corrupting the shadow index", async () => {
    for (let index = 0; index < 50; index++) bed.write(`files/${index}.txt`, `${index}\n`);
    const repository = await bed.open();

    const [first, second] = await Promise.all([repository.snapshot("one"), repository.snapshot("two")]);

    expect(expectOk(first).commit).toBe(expectOk(second).commit);
    expect(filesInCheckpoint(repository, expectOk(first).commit)).toHaveLength(50);
  });

  it("serializes operations of two repository objects opened on the same project", async () => {
    bed.write("a.txt", "a\n");
    const [one, two] = await Promise.all([bed.open(), bed.open()]);
    expect(one.gitDir).toBe(two.gitDir);
    const base = expectOk(await one.snapshot("base"));
    bed.write("a.txt", "changed\n");

    const results = await Promise.all([
      one.snapshot("from one"),
      two.diff(base.commit),
      two.snapshot("from two"),
      one.restore(base.commit),
      two.prune(),
    ]);

    expect(results.map((result) => (result.ok ? "ok" : result.error.message))).toEqual(Array(5).fill("ok"));
    expect(bed.read("a.txt").toString()).toBe("a\n");
  });
});
