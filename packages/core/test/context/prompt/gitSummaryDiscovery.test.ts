import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readGitSummary } from "../../../src/context/prompt/gitSummary.js";
import { isolatedGit } from "../../isolatedGit.js";

let base: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), "lathe-git-discovery-")));
});
afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

const git = isolatedGit;

function repositoryWithCommit(name: string): string {
  const repository = path.join(base, name);
  mkdirSync(repository);
  git(repository, "init", "-q", "-b", "main");
  writeFileSync(path.join(repository, "a.txt"), "a\n");
  git(repository, "add", "a.txt");
  git(repository, "commit", "-q", "-m", "First");
  return repository;
}

describe("readGitSummary finds the repository the way git does", () => {
  it("from a folder deep inside the work tree", async () => {
    const repository = repositoryWithCommit("project");
    const nested = path.join(repository, "src", "deep");
    mkdirSync(nested, { recursive: true });
    const facts = await readGitSummary(nested);
    expect(facts?.branch).toBe("main");
    expect(facts?.recentCommits.map((line) => line.replace(/^\w+ /, ""))).toEqual(["First"]);
  });

  it("from a linked work tree, whose .git is a file", async () => {
    const repository = repositoryWithCommit("project");
    const linked = path.join(base, "linked");
    git(repository, "worktree", "add", "-q", "-b", "side", linked);
    expect((await readGitSummary(linked))?.branch).toBe("side");
  });

  it("not from a folder with no .git in it or above it, even one git itself keeps", async () => {
    const plain = path.join(base, "plain");
    mkdirSync(plain);
    expect(await readGitSummary(plain)).toBeUndefined();
    const repository = repositoryWithCommit("project");
    expect(await readGitSummary(path.join(repository, ".git", "refs"))).toBeUndefined();
  });
});
