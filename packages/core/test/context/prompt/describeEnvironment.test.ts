import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { platform, release, tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { describeEnvironment } from "../../../src/context/prompt/index.js";
import { isolatedGit } from "../../isolatedGit.js";

let base: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), "lathe-environment-")));
});
afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

const git = isolatedGit;

function commit(repository: string, file: string, contents: string, message: string): void {
  writeFileSync(path.join(repository, file), contents);
  git(repository, "add", file);
  git(repository, "commit", "-q", "-m", message);
}

function newRepository(name: string): string {
  const repository = path.join(base, name);
  mkdirSync(repository);
  git(repository, "init", "-q", "-b", "main");
  return repository;
}

// A fixed local time: the date is the user's calendar day.
const now = new Date(2025, 2, 7, 23, 30);
const environmentOf = (projectRoot: string) => describeEnvironment({ projectRoot, shell: "/bin/bash", now });

describe("describeEnvironment", () => {
  it("reports the branch, the uncommitted files and the five newest commits of a repository", async () => {
    const repository = newRepository("project");
    for (let index = 1; index <= 6; index++)
      commit(repository, `file${index}.txt`, `${index}\n`, `Commit ${index}`);
    writeFileSync(path.join(repository, "file1.txt"), "changed\n");
    writeFileSync(path.join(repository, "staged.txt"), "new\n");
    git(repository, "add", "staged.txt");
    writeFileSync(path.join(repository, "untracked.txt"), "new\n");

    const expectedCommits = git(repository, "log", "-n5", "--format=%h %s").split("\n");
    expect(expectedCommits.map((line) => line.replace(/^\w+ /, ""))).toEqual([
      "Commit 6",
      "Commit 5",
      "Commit 4",
      "Commit 3",
      "Commit 2",
    ]);
    expect(await environmentOf(repository)).toEqual({
      os: `${platform()} ${release()}`,
      shell: "/bin/bash",
      date: "2025-03-07",
      cwd: repository,
      git: { branch: "main", dirtyFiles: 3, recentCommits: expectedCommits },
    });
  });

  it("counts commits ahead of and behind the upstream", async () => {
    const origin = newRepository("origin");
    commit(origin, "a.txt", "a\n", "First");
    git(base, "clone", "-q", origin, "clone");
    const clone = path.join(base, "clone");
    commit(clone, "b.txt", "b\n", "Local");
    commit(origin, "c.txt", "c\n", "Remote 1");
    commit(origin, "d.txt", "d\n", "Remote 2");
    git(clone, "fetch", "-q");

    const facts = await environmentOf(clone);
    expect(facts.git).toMatchObject({ branch: "main", dirtyFiles: 0, ahead: 1, behind: 2 });
  });

  it("handles a repository without commits and a detached HEAD", async () => {
    const empty = newRepository("empty");
    expect((await environmentOf(empty)).git).toEqual({ branch: "main", dirtyFiles: 0, recentCommits: [] });

    const detached = newRepository("detached");
    commit(detached, "a.txt", "a\n", "First");
    commit(detached, "a.txt", "b\n", "Second");
    git(detached, "checkout", "-q", "HEAD~1");
    const facts = await environmentOf(detached);
    expect(facts.git?.branch).toBeUndefined();
    expect(facts.git?.recentCommits.map((line) => line.replace(/^\w+ /, ""))).toEqual(["First"]);
  });

  it("leaves git out for a directory that is not a repository, and one that does not exist", async () => {
    const plain = path.join(base, "plain");
    mkdirSync(plain);
    expect(await environmentOf(plain)).toEqual({
      os: `${platform()} ${release()}`,
      shell: "/bin/bash",
      date: "2025-03-07",
      cwd: plain,
    });
    expect((await environmentOf(path.join(base, "missing"))).git).toBeUndefined();
  });
});
