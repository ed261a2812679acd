import { readdirSync } from "node:fs";
import path from "node:path";
import { isDirectory, pathExists } from "./pathKinds.js";

/** Submodule git dirs nest (`.git/modules/a/modules/b`); a bound walk keeps a huge tree cheap. */
const maxModuleDepth = 6;
const maxGitDirs = 64;

/** Directories of a git dir kept read-only, stood in for by an empty read-only one when missing. */
export const protectedGitDirectories = ["hooks", "info", "worktrees"];
/**
 * Files of a git dir kept read-only when present. A missing one cannot be stood in for: an empty
 * `commondir` or `config.worktree` left behind as a mount point would break git on the host.
 */
const protectedFiles = ["config", "config.worktree", "commondir"];

/**
 * bwrap arguments that keep the git metadata of the project's repository (and of its
 * submodules) read-only: hooks, config, `commondir`, `info/`, `worktrees/`. Each makes git run
 * code on the host later: a hook at the next `git commit`; config through `core.hooksPath`,
 * `core.fsmonitor` or filters; `commondir` by pointing at another repository's config. None shows
 * in `git status`, so the user would not see a sandboxed command plant one.
 */
export function gitProtectionArgs(projectRoot: string): string[] {
  const gitDir = path.join(projectRoot, ".git");
  // A `.git` file (worktree, submodule checkout) says where the repository is: rewritten, it
  // would point git at one with hostile config. Its target outside the project is read-only anyway.
  if (pathExists(gitDir) && !isDirectory(gitDir)) return ["--ro-bind", gitDir, gitDir];
  return projectGitDirs(projectRoot).flatMap(protectGitDir);
}

/** The git dirs of the project's repository and of its submodules; none unless `.git` is a directory. */
export function projectGitDirs(projectRoot: string): string[] {
  const gitDir = path.join(projectRoot, ".git");
  if (!isDirectory(gitDir)) return [];
  const gitDirs = [gitDir];
  collectModuleGitDirs(path.join(gitDir, "modules"), 0, gitDirs);
  return gitDirs;
}

function protectGitDir(gitDir: string): string[] {
  // Binding the directory onto itself makes it a mount point, which cannot be renamed or removed:
  // otherwise `mv .git x && cp -r x .git` would yield a copy with writable hooks and config.
  const args = ["--bind", gitDir, gitDir];
  for (const name of protectedGitDirectories) args.push(...readOnlyDirectoryArgs(path.join(gitDir, name)));
  for (const name of protectedFiles) {
    const file = path.join(gitDir, name);
    if (pathExists(file)) args.push("--ro-bind", file, file);
  }
  return args;
}

/**
 * A directory kept read-only. Without it a command could create it with something inside; an
 * empty read-only one takes its place. bwrap leaves the empty directory behind as the mount
 * point; `watchSandboxLeftovers` removes it once no sandbox uses it.
 */
export function readOnlyDirectoryArgs(directory: string): string[] {
  if (pathExists(directory)) return ["--ro-bind", directory, directory];
  return ["--tmpfs", directory, "--remount-ro", directory];
}

/** Submodule names may contain slashes, so a git dir is any directory under `modules` with a HEAD. */
function collectModuleGitDirs(directory: string, depth: number, found: string[]): void {
  if (depth > maxModuleDepth || found.length >= maxGitDirs || !isDirectory(directory)) return;
  for (const name of subdirectoryNames(directory)) {
    if (found.length >= maxGitDirs) return;
    const child = path.join(directory, name);
    if (pathExists(path.join(child, "HEAD"))) {
      found.push(child);
      collectModuleGitDirs(path.join(child, "modules"), depth + 1, found);
    } else {
      collectModuleGitDirs(child, depth + 1, found);
    }
  }
}

function subdirectoryNames(directory: string): string[] {
  try {
    return readdirSync(directory, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}
