import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ShadowRepository } from "../../src/checkpoint/index.js";
import { type CheckpointTestBed, createCheckpointTestBed, expectOk } from "./checkpointTestBed.js";

let bed: CheckpointTestBed;
beforeEach(() => {
  bed = createCheckpointTestBed();
});
afterEach(() => bed.cleanup());

/** Checkpoints that each hold 200 KB of incompressible data no other checkpoint shares. */
async function distinctCheckpoints(repository: ShadowRepository, count: number): Promise<string[]> {
  const commits: string[] = [];
  for (let index = 0; index < count; index++) {
    bed.write("data.bin", randomBytes(200 * 1024));
    bed.write("counter.txt", `${index}\n`);
    commits.push(expectOk(await repository.snapshot(`checkpoint ${index}`)).commit);
  }
  return commits;
}

const objectExists = (repository: ShadowRepository, commit: string) => {
  try {
    execFileSync("git", ["--git-dir", repository.gitDir, "cat-file", "-e", commit], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};

describe("prune", () => {
  it("drops all but the newest checkpoint under a tiny limit; dropped ones are gone", async () => {
    const repository = await bed.open({ maxTotalBytes: 1 });
    const commits = await distinctCheckpoints(repository, 4);
    const newest = commits[3]!;

    const pruned = expectOk(await repository.prune());

    expect(pruned.dropped).toEqual(commits.slice(0, 3));
    expect(pruned.sizeBytes).toBe(await repository.sizeBytes());
    for (const dropped of pruned.dropped) {
      expect(objectExists(repository, dropped)).toBe(false);
      const restored = await repository.restore(dropped);
      expect(restored.ok ? undefined : restored.error.code).toBe("E_NOT_FOUND");
      const diff = await repository.diff(dropped);
      expect(diff.ok ? undefined : diff.error.code).toBe("E_NOT_FOUND");
    }
    expect(expectOk(await repository.diff(newest)).files).toEqual([]);
    bed.write("counter.txt", "after prune\n");
    expectOk(await repository.restore(newest));
    expect(bed.read("counter.txt").toString()).toBe("3\n");
  });

  it("drops just the oldest checkpoints needed to get under the limit", async () => {
    const repository = await bed.open({ maxTotalBytes: 700 * 1024 });
    const commits = await distinctCheckpoints(repository, 6);
    expect(await repository.sizeBytes()).toBeGreaterThan(1200 * 1024);

    const pruned = expectOk(await repository.prune());

    expect(pruned.dropped).toEqual(commits.slice(0, 3));
    expect(pruned.sizeBytes).toBeLessThanOrEqual(700 * 1024);
    for (const kept of commits.slice(3)) expect(objectExists(repository, kept)).toBe(true);
  });

  it("drops nothing while the git dir is under the limit", async () => {
    const repository = await bed.open();
    const commits = await distinctCheckpoints(repository, 2);
    const pruned = expectOk(await repository.prune());
    expect(pruned.dropped).toEqual([]);
    for (const commit of commits) expect(objectExists(repository, commit)).toBe(true);
  });
});
