import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { errorInfo } from "@lathe/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type CheckpointTestBed,
  createCheckpointTestBed,
  expectOk,
  filesInCheckpoint,
} from "./checkpointTestBed.js";

let bed: CheckpointTestBed;
let saved: { PATH?: string; HOME?: string };
beforeEach(() => {
  bed = createCheckpointTestBed();
  saved = { PATH: process.env.PATH, HOME: process.env.HOME };
});
afterEach(() => {
  process.env.PATH = saved.PATH;
  process.env.HOME = saved.HOME;
  bed.cleanup();
});

describe("the shadow git dir, set up by the first operation", () => {
  it("is left empty by opening and set up by the first snapshot", async () => {
    bed.write("a.txt", "a\n");
    const repository = await bed.open();
    expect(readdirSync(repository.gitDir)).toEqual([]);

    const first = expectOk(await repository.snapshot("first"));

    expect(readFileSync(path.join(repository.gitDir, "info", "attributes"), "utf8")).toBe(
      "* -text -ident -filter !working-tree-encoding\n",
    );
    expect(readFileSync(path.join(repository.gitDir, "project"), "utf8")).toBe(
      `${realpathSync(bed.projectRoot)}\n`,
    );
    expect(filesInCheckpoint(repository, first.commit)).toEqual(["a.txt"]);
    expect(expectOk(await repository.snapshot("unchanged")).commit).toBe(first.commit);
  });

  it("opens without git, says at each operation that git is missing, and works once git is back", async () => {
    bed.write("a.txt", "a\n");
    const noGit = mkdtempSync(path.join(tmpdir(), "lathe-no-git-"));
    try {
      process.env.PATH = noGit;
      const repository = await bed.open();
      const missing = errorInfo("E_TOOL_EXECUTION", "git is not installed (not found on PATH).");
      expect(await repository.snapshot("first")).toEqual({ ok: false, error: missing });
      expect(await repository.snapshot("again")).toEqual({ ok: false, error: missing });
      expect(readdirSync(repository.gitDir)).toEqual([]);

      process.env.PATH = saved.PATH;
      const taken = expectOk(await repository.snapshot("with git"));
      expect(filesInCheckpoint(repository, taken.commit)).toEqual(["a.txt"]);
    } finally {
      rmSync(noGit, { recursive: true, force: true });
    }
  });

  it("leaves out what the user's global ignore file names, looked up at the first operation", async () => {
    const userHome = mkdtempSync(path.join(tmpdir(), "lathe-user-home-"));
    try {
      const ignoreFile = path.join(userHome, "global-ignore");
      writeFileSync(ignoreFile, "*.swp\n");
      writeFileSync(path.join(userHome, ".gitconfig"), `[core]\n\texcludesFile = ${ignoreFile}\n`);
      bed.write("a.txt", "a\n");
      bed.write(".a.txt.swp", "editor state\n");
      const repository = await bed.open();

      process.env.HOME = userHome;
      const taken = expectOk(await repository.snapshot("first"));

      expect(filesInCheckpoint(repository, taken.commit)).toEqual(["a.txt"]);
    } finally {
      rmSync(userHome, { recursive: true, force: true });
    }
  });
});
