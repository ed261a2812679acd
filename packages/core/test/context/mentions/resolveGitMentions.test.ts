import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveMentions } from "../../../src/context/mentions/resolveMentions.js";
import { isolatedGitAt } from "../../isolatedGit.js";
import { type ContextTestBed, createContextTestBed } from "../dynamic/contextTestBed.js";
import { mention, sourcesFor } from "./mentionTestBed.js";

let bed: ContextTestBed;
beforeEach(() => {
  bed = createContextTestBed();
});
afterEach(() => bed.cleanup());

/** git in the test project, with a fixed identity and clock and none of the user's own config. */
const git = (...args: string[]) => isolatedGitAt("2025-01-02T03:04:05Z", bed.root, ...args);

function repository(): { first: string; second: string } {
  git("init", "--quiet", "--initial-branch=main");
  bed.write("a.txt", "one\n");
  git("add", "a.txt");
  git("commit", "--quiet", "-m", "First commit");
  bed.write("a.txt", "one\ntwo\n");
  git("commit", "--quiet", "-am", "Second commit");
  return {
    first: git("rev-parse", "--short", "HEAD~1").trim(),
    second: git("rev-parse", "--short", "HEAD").trim(),
  };
}

const attached = async (argument: string) => {
  const result = await resolveMentions([mention("git", argument)], sourcesFor(bed.root));
  return {
    texts: result.attachments.map(({ title, text }) => [title, text]),
    errors: result.errors.map((e) => e.error),
  };
};

describe("@git", () => {
  it("diff: staged, unstaged and untracked changes", async () => {
    repository();
    expect((await attached("diff")).texts).toEqual([
      ["git diff", "No changes: the working tree matches the last commit."],
    ]);

    bed.write("a.txt", "one\ntwo\nthree\n");
    bed.write("new.txt", "new\n");
    bed.write("staged.txt", "s\n");
    git("add", "staged.txt");
    const { texts } = await attached("diff");
    expect(texts).toHaveLength(1);
    const [title, text] = texts[0]!;
    expect(title).toBe("git diff");
    expect(text).toMatch(
      /^git status --short:\n M a\.txt\nA {2}staged\.txt\n\?\? new\.txt\n\nStaged \(git diff --cached\):\n/,
    );
    expect(text).toContain("diff --git a/staged.txt b/staged.txt\nnew file mode 100644");
    expect(text).toMatch(
      /\n\nNot staged \(git diff\):\ndiff --git a\/a\.txt b\/a\.txt\n[\s\S]* one\n two\n\+three$/,
    );
  });

  it("log: the latest commits, newest first", async () => {
    const { first, second } = repository();
    expect((await attached("log")).texts).toEqual([
      ["git log", `${second} 2025-01-02 Ada\n    Second commit\n${first} 2025-01-02 Ada\n    First commit`],
    ]);
  });

  it("commit: one commit with its patch", async () => {
    const { first } = repository();
    const { texts } = await attached(`commit ${first}`);
    expect(texts[0]![0]).toBe(`git commit ${first}`);
    expect(texts[0]![1]).toMatch(/^commit [0-9a-f]{40}\nAuthor: {5}Ada <ada@example\.com>\n/);
    expect(texts[0]![1]).toContain("    First commit\n---\n a.txt | 1 +\n");
    expect(texts[0]![1]).toMatch(/\+one$/);
  });

  it("refuses what it does not support, and revisions that look like options", async () => {
    repository();
    const codes = async (argument: string) =>
      (await attached(argument)).errors.map((error) => [error.code, error.message]);
    expect(await codes("status")).toEqual([
      ["E_INVALID_ARGS", "@git status is not supported; use @git diff, @git log or @git commit <sha>."],
    ]);
    expect(await codes("commit --output=/tmp/x")).toEqual([
      ["E_INVALID_ARGS", '"--output=/tmp/x" is not a commit id.'],
    ]);
    expect(await codes("commit")).toEqual([
      ["E_INVALID_ARGS", "@git commit is not supported; use @git diff, @git log or @git commit <sha>."],
    ]);
    const unknown = await codes("commit deadbeef");
    expect(unknown[0]![0]).toBe("E_TOOL_EXECUTION");
    expect(unknown[0]![1]).toMatch(/^git show failed: /);
  });

  it("says so outside a git repository", async () => {
    // The temp directory holds no repository, and nothing above it may be one either.
    expect((await attached("log")).errors.map((error) => [error.code, error.message])).toEqual([
      ["E_TOOL_EXECUTION", "The project is not a git repository, so @git has nothing to show."],
    ]);
  });

  it("cuts output over gitMaxBytes and says so", async () => {
    git("init", "--quiet", "--initial-branch=main");
    bed.write("big.txt", "x\n".repeat(5000));
    git("add", "big.txt");
    const result = await resolveMentions(
      [mention("git", "diff")],
      sourcesFor(bed.root, { limits: { gitMaxBytes: 2000 } }),
    );
    const text = result.attachments[0]!.text;
    expect(text).toContain("[Output cut: git printed more than the limit.]");
    expect(text.length).toBeLessThan(5000);
  });
});
