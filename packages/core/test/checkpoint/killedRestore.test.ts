import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type CheckpointTestBed, createCheckpointTestBed, expectOk } from "./checkpointTestBed.js";

/** The built engine: the restore that gets killed runs in a process of its own. */
const coreBundle = fileURLToPath(new URL("../../dist/core.bundle.js", import.meta.url));

const restoreScript = `
const [bundle, latheHome, projectRoot, homeDir, commit] = process.argv.slice(1);
const { openShadowRepository } = await import(bundle);
const opened = await openShadowRepository({ latheHome, projectRoot, homeDir });
if (!opened.ok) throw new Error(opened.error.message);
await opened.value.restore(commit);
`;

let bed: CheckpointTestBed;
beforeEach(() => {
  bed = createCheckpointTestBed();
});
afterEach(() => bed.cleanup());

const fileCount = 800;
const fileName = (index: number) => `files/${String(index).padStart(4, "0")}.txt`;

/** Polls `condition`; a child that exits first (a missing build, an error) fails the wait. */
async function until(condition: () => boolean, exited: () => boolean): Promise<void> {
  while (!condition()) {
    if (exited()) expect.fail("the restoring process ended before it was killed");
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

describe("a restore whose process group is killed with SIGKILL", () => {
  it("leaves whole files only, and the next opener clears the lock and finishes the restore", async () => {
    for (let index = 0; index < fileCount; index++)
      bed.write(fileName(index), `target ${index}\n`.repeat(50));
    const repository = await bed.open();
    const target = expectOk(await repository.snapshot("target")).commit;
    for (let index = 0; index < fileCount; index++) bed.write(fileName(index), `edited ${index}\n`);

    const child = spawn(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        restoreScript,
        coreBundle,
        bed.latheHome,
        bed.projectRoot,
        bed.homeDir,
        target,
      ],
      { detached: true, stdio: "ignore" },
    );
    let ended = false;
    const exited = new Promise((resolve) => child.once("exit", resolve)).then(() => {
      ended = true;
    });
    // Killed once the restore has begun writing: the first file is back, the last is not yet.
    await until(
      () => bed.read(fileName(0)).toString().startsWith("target"),
      () => ended,
    );
    process.kill(-(child.pid ?? 0), "SIGKILL");
    await exited;

    const gitDir = repository.gitDir;
    expect(existsSync(path.join(gitDir, "lathe-restore.json"))).toBe(true);
    expect(existsSync(path.join(gitDir, "lathe-operation.lock"))).toBe(true);
    const contents = Array.from({ length: fileCount }, (_, index) => bed.read(fileName(index)).toString());
    expect(contents.at(-1)).toBe(`edited ${fileCount - 1}\n`);
    // Every file is the old one or the new one, never empty or a part of either.
    for (const [index, content] of contents.entries()) {
      expect([`edited ${index}\n`, `target ${index}\n`.repeat(50)]).toContain(content);
    }

    const reopened = await bed.open();
    for (let index = 0; index < fileCount; index++) {
      expect(bed.read(fileName(index)).toString()).toBe(`target ${index}\n`.repeat(50));
    }
    expect(readdirSync(path.join(bed.projectRoot, "files")).filter((name) => name.endsWith(".tmp"))).toEqual(
      [],
    );
    expect(existsSync(path.join(gitDir, "lathe-restore.json"))).toBe(false);
    const next = expectOk(await reopened.snapshot("after"));
    expect(next.recovered).toHaveLength(2);
    expect(next.recovered[0]).toBe(`Removed a stale checkpoint lock left by process ${child.pid}`);
    expect(next.recovered[1]).toMatch(
      new RegExp(`^Finished a restore to checkpoint ${target} that was interrupted`),
    );
  }, 60_000);
});
