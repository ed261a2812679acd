import { existsSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openShadowRepository } from "../../src/checkpoint/index.js";
import { resolveMentions } from "../../src/context/mentions/resolveMentions.js";
import { readGitSummary } from "../../src/context/prompt/gitSummary.js";
import { mention, sourcesFor } from "../context/mentions/mentionTestBed.js";
import { createHostileFixture, type HostileFixture, withEnvironment } from "./hostileRepository.js";

let fixture: HostileFixture;
beforeEach(() => {
  fixture = createHostileFixture();
});
afterEach(() => fixture.cleanup());

/** The environment of a Lathe started from a git hook, or by someone who wants git misdirected. */
function hostile<T>(run: () => Promise<T>): Promise<T> {
  return withEnvironment({ HOME: fixture.home, ...fixture.hostileVariables() }, run);
}

/** New timestamps, same bytes: git must read the files again, through any clean filter it knows. */
function touchFiles(dir: string): void {
  const later = new Date("2030-01-01T00:00:00Z");
  for (const file of ["a.txt", "notes.md"]) utimesSync(path.join(dir, file), later, later);
}

describe("the hostile fixture", () => {
  it("makes plain git start its programs: the repository's, the redirected one's and the environment's", () => {
    touchFiles(fixture.project);
    fixture.git(["status", "--short"], fixture.project);
    fixture.git(["show", "HEAD"], fixture.project);
    fixture.git(["checkout", "--quiet", "-b", "other"], fixture.project);
    expect(fixture.markersFound()).toEqual([
      "hook-post-checkout",
      "hook-post-index-change",
      "hook-reference-transaction",
      "project-clean",
      "project-clean-odd-name",
      "project-fsmonitor",
      "project-smudge",
      "project-textconv",
    ]);

    fixture.git(["status", "--short"], fixture.commondirProject);
    expect(fixture.markersFound()).toContain("commondir-fsmonitor");

    fixture.git(["status", "--short"], fixture.project, fixture.hostileVariables());
    expect(fixture.markersFound()).toContain("variable-config-parameters");
  });
});

describe("git run by the engine in the hostile repositories", () => {
  it("the prompt's git summary reads both repositories and starts nothing", async () => {
    touchFiles(fixture.project);
    const commits = fixture.git(["log", "--format=%h %s"], fixture.project).trim().split("\n");
    const redirectedCommits = fixture.git(["log", "--format=%h %s"], fixture.redirected).trim().split("\n");
    const [summary, redirectedSummary] = await hostile(async () => [
      await readGitSummary(fixture.project),
      await readGitSummary(fixture.commondirProject),
    ]);
    expect(summary).toEqual({ branch: "main", dirtyFiles: 0, recentCommits: commits });
    expect(redirectedSummary?.branch).toBe("main");
    expect(redirectedSummary?.recentCommits).toEqual(redirectedCommits);
    expect(fixture.markersFound()).toEqual([]);
  });

  it("@git diff, log and commit show the project's changes and start nothing", async () => {
    touchFiles(fixture.project);
    writeFileSync(path.join(fixture.project, "a.txt"), "one\ntwo\nthree\n");
    const head = fixture.git(["rev-parse", "--short", "HEAD"], fixture.project).trim();
    const resolved = await hostile(() =>
      resolveMentions(
        [mention("git", "diff"), mention("git", "log"), mention("git", `commit ${head}`)],
        sourcesFor(fixture.project),
      ),
    );
    expect(resolved.errors).toEqual([]);
    const texts = Object.fromEntries(resolved.attachments.map(({ title, text }) => [title, text]));
    expect(texts["git diff"]).toMatch(/^git status --short:\n M a\.txt\n\nNot staged \(git diff\):\n/);
    expect(texts["git diff"]).toContain(" one\n two\n+three");
    expect(texts["git log"]).toMatch(/Second commit\n.*\n {4}First commit$/);
    expect(texts[`git commit ${head}`]).toContain(" one\n+two");
    expect(fixture.markersFound()).toEqual([]);

    const redirected = await hostile(() =>
      resolveMentions([mention("git", "diff")], sourcesFor(fixture.commondirProject)),
    );
    expect(redirected.errors).toEqual([]);
    expect(fixture.markersFound()).toEqual([]);
  });

  it("checkpoints snapshot, diff and restore the project and start nothing", async () => {
    const latheHome = path.join(fixture.base, "lathe-home");
    await hostile(async () => {
      const opened = await openShadowRepository({
        latheHome,
        projectRoot: fixture.project,
        homeDir: fixture.home,
      });
      if (!opened.ok) throw new Error(opened.error.message);
      const shadow = opened.value;
      const first = await shadow.snapshot("first");
      if (!first.ok) throw new Error(first.error.message);
      touchFiles(fixture.project);
      writeFileSync(path.join(fixture.project, "a.txt"), "changed\n");
      writeFileSync(path.join(fixture.project, "b.txt"), "new\n");
      const diff = await shadow.diff(first.value.commit);
      expect(diff.ok && diff.value.files.map((file) => file.path).sort()).toEqual(["a.txt", "b.txt"]);
      const restored = await shadow.restore(first.value.commit);
      if (!restored.ok) throw new Error(restored.error.message);
      expect(restored.value.removed).toEqual(["b.txt"]);
      expect(restored.value.written).toEqual(["a.txt"]);
    });
    expect(readFileSync(path.join(fixture.project, "a.txt"), "utf8")).toBe("one\ntwo\n");
    expect(existsSync(path.join(fixture.project, "b.txt"))).toBe(false);
    expect(fixture.markersFound()).toEqual([]);
  });
});
