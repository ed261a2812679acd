import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createRepositoryBundle, trackedFiles, uncommittedChanges } from "../src/tasks/repositoryBundle.js";

let base: string;
/** Where the bundler makes its temp folders (TMPDIR): empty again after every call. */
let bundlerTemp: string;
/** HEAD on main: README.md and src/app.ts; `feature` adds a commit that changes src/app.ts. */
let project: string;
let saved: { HOME: string | undefined; TMPDIR: string | undefined };

const cap = 10 * 1024 * 1024;

/** Plain git for fixtures, with the throwaway home and a fixed identity. */
function git(args: string[], cwd: string): string {
  return execFileSync(
    "git",
    ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "advice.detachedHead=false", ...args],
    {
      cwd,
      encoding: "utf8",
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1" },
    },
  );
}

function newRepository(name: string): string {
  const dir = path.join(base, name);
  mkdirSync(dir);
  git(["init", "-q", "-b", "main"], dir);
  return dir;
}

beforeAll(() => {
  base = mkdtempSync(path.join(os.tmpdir(), "lathe-bundle-test-"));
  saved = { HOME: process.env.HOME, TMPDIR: process.env.TMPDIR };
  const home = path.join(base, "home");
  bundlerTemp = path.join(base, "tmp");
  mkdirSync(home);
  mkdirSync(bundlerTemp);
  process.env.HOME = home;
  process.env.TMPDIR = bundlerTemp;

  project = newRepository("project");
  writeFileSync(path.join(project, "README.md"), "# project\n");
  mkdirSync(path.join(project, "src"));
  writeFileSync(path.join(project, "src/app.ts"), "export const version = 1;\n");
  git(["add", "."], project);
  git(["commit", "-q", "-m", "first"], project);
  git(["switch", "-q", "-c", "feature"], project);
  writeFileSync(path.join(project, "src/app.ts"), "export const version = 2;\n");
  git(["commit", "-q", "-am", "feature"], project);
  git(["switch", "-q", "main"], project);
});

afterAll(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  rmSync(base, { recursive: true, force: true });
});

afterEach(() => {
  expect(readdirSync(bundlerTemp)).toEqual([]);
});

/** Clones the bundle as the fleet would: plain git, from the bundle file. */
function cloneBundle(bundle: Buffer, name: string, branch?: string): string {
  const file = path.join(base, `${name}.bundle`);
  writeFileSync(file, bundle);
  const clone = path.join(base, name);
  git(["clone", "-q", ...(branch === undefined ? [] : ["-b", branch]), file, clone], base);
  return clone;
}

describe("createRepositoryBundle", () => {
  it("bundles HEAD: a clone of it has the exact files and commit", async () => {
    const outcome = await createRepositoryBundle({ projectDir: project, capBytes: cap });
    if (!outcome.ok) throw new Error(outcome.error.message);
    expect(outcome.ref).toBe("HEAD");
    expect(outcome.commit).toBe(git(["rev-parse", "main"], project).trim());
    expect(outcome.commit).toMatch(/^[0-9a-f]{40}$/);

    const clone = cloneBundle(outcome.bundle, "clone-head");
    expect(git(["rev-parse", "HEAD"], clone).trim()).toBe(outcome.commit);
    expect(readFileSync(path.join(clone, "src/app.ts"), "utf8")).toBe("export const version = 1;\n");
    expect(readFileSync(path.join(clone, "README.md"), "utf8")).toBe("# project\n");
  });

  it("bundles the branch asked for", async () => {
    const outcome = await createRepositoryBundle({ projectDir: project, ref: "feature", capBytes: cap });
    if (!outcome.ok) throw new Error(outcome.error.message);
    expect(outcome.ref).toBe("feature");
    expect(outcome.commit).toBe(git(["rev-parse", "feature"], project).trim());
    expect(outcome.commit).not.toBe(git(["rev-parse", "main"], project).trim());

    const clone = cloneBundle(outcome.bundle, "clone-feature", "feature");
    expect(git(["rev-parse", "HEAD"], clone).trim()).toBe(outcome.commit);
    expect(readFileSync(path.join(clone, "src/app.ts"), "utf8")).toBe("export const version = 2;\n");
  });

  it("refuses a bundle over the cap, naming both sizes, and leaves no temp folder", async () => {
    const outcome = await createRepositoryBundle({ projectDir: project, capBytes: 100 });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe("E_BUNDLE_TOO_LARGE");
    expect(outcome.error.message).toMatch(
      /^The repository bundle of HEAD is [\d.]+ MB, over the 0\.000095 MB cap\.$/,
    );
    // afterEach checks the temp folder is gone.
  });

  it("says a plain folder is not a git repository", async () => {
    const plain = path.join(base, "plain");
    mkdirSync(plain);
    writeFileSync(path.join(plain, "file.txt"), "text\n");
    const outcome = await createRepositoryBundle({ projectDir: plain, capBytes: cap });
    expect(!outcome.ok && outcome.error.code).toBe("E_REPO_UNAVAILABLE");
    expect(!outcome.ok && outcome.error.message).toBe(`${plain} is not a git repository.`);
  });

  it("says a missing folder is not a folder (not that git is missing)", async () => {
    const outcome = await createRepositoryBundle({ projectDir: path.join(base, "nowhere"), capBytes: cap });
    expect(!outcome.ok && outcome.error.code).toBe("E_REPO_UNAVAILABLE");
    expect(!outcome.ok && outcome.error.message).toMatch(/nowhere is not a folder\.$/);
  });

  it("says an unknown ref is unknown", async () => {
    const outcome = await createRepositoryBundle({ projectDir: project, ref: "nope", capBytes: cap });
    expect(!outcome.ok && outcome.error.code).toBe("E_REPO_UNAVAILABLE");
    expect(!outcome.ok && outcome.error.message).toBe(
      `The repository at ${project} has no branch or tag "nope".`,
    );
  });

  it("refuses a ref that would read as an option, and a bare commit", async () => {
    const dashed = await createRepositoryBundle({ projectDir: project, ref: "--all", capBytes: cap });
    expect(!dashed.ok && dashed.error.code).toBe("E_REPO_UNAVAILABLE");
    expect(!dashed.ok && dashed.error.message).toMatch(/"--all" is not a branch, a tag or HEAD/);

    const sha = git(["rev-parse", "main"], project).trim();
    const bare = await createRepositoryBundle({ projectDir: project, ref: sha, capBytes: cap });
    expect(!bare.ok && bare.error.code).toBe("E_REPO_UNAVAILABLE");
    expect(!bare.ok && bare.error.message).toMatch(/names a commit, not a branch or tag/);
  });

  it("says a repository without a commit has none yet", async () => {
    const empty = newRepository("empty");
    const outcome = await createRepositoryBundle({ projectDir: empty, capBytes: cap });
    expect(!outcome.ok && outcome.error.code).toBe("E_REPO_UNAVAILABLE");
    expect(!outcome.ok && outcome.error.message).toBe(
      `The repository at ${empty} has no commit yet; commit before sending it.`,
    );
  });
});

describe("trackedFiles", () => {
  it("lists exactly the tracked files", async () => {
    writeFileSync(path.join(project, "untracked.txt"), "not added\n");
    try {
      expect(await trackedFiles(project)).toEqual({ ok: true, files: ["README.md", "src/app.ts"] });
    } finally {
      rmSync(path.join(project, "untracked.txt"));
    }
  });

  it("says a plain folder is not a repository", async () => {
    const plain = mkdtempSync(path.join(base, "plain-"));
    const listed = await trackedFiles(plain);
    expect(!listed.ok && listed.error.code).toBe("E_REPO_UNAVAILABLE");
  });
});

describe("uncommittedChanges", () => {
  it("lists modified, renamed and untracked paths, and nothing for a clean tree", async () => {
    const changes = newRepository("changes");
    writeFileSync(path.join(changes, "a.txt"), "a\n");
    writeFileSync(path.join(changes, "b.txt"), "b\n");
    git(["add", "."], changes);
    git(["commit", "-q", "-m", "first"], changes);
    expect(await uncommittedChanges(changes)).toEqual([]);

    writeFileSync(path.join(changes, "a.txt"), "changed\n");
    git(["mv", "b.txt", "c.txt"], changes);
    writeFileSync(path.join(changes, "new.txt"), "new\n");
    expect(await uncommittedChanges(changes)).toEqual(["a.txt", "c.txt", "new.txt"]);
  });

  it("is empty outside a repository", async () => {
    expect(await uncommittedChanges(mkdtempSync(path.join(base, "plain-")))).toEqual([]);
  });
});
