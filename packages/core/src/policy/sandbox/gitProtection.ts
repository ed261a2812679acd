import { readdirSync } from "node:fs";
import path from "node:path";
import { isDirectory, pathExists } from "./pathKinds.js";

/** Submodule git dirs nest (`.git/modules/a/modules/b`); a bound walk keeps a huge tree cheap. */
const maxModuleDepth = 6;
const maxGitDirs = 64;

/**
 * bwrap arguments that keep the hooks and config of the project's repository (and of its
 * submodules) read-only. Both run code on the host later: a hook at the next `git commit`, and
 * config through `core.hooksPath`, `core.fsmonitor` or filters. Neither shows in `git status`, so
 * the user would not see a sandboxed command plant one.
 */
export function gitProtectionArgs(projectRoot: string): string[] {
  const gitDir = path.join(projectRoot, ".git");
  // A `.git` file (worktree, submodule checkout) points outside the project, which is read-only anyway.
  if (!isDirectory(gitDir)) return [];
  const gitDirs = [gitDir];
  collectModuleGitDirs(path.join(gitDir, "modules"), 0, gitDirs);
  return gitDirs.flatMap(protectGitDir);
}

function protectGitDir(gitDir: string): string[] {
  // Binding the directory onto itself makes it a mount point, which cannot be renamed or removed:
  // otherwise `mv .git x && cp -r x .git` would yield a copy with writable hooks and config.
  const args = ["--bind", gitDir, gitDir];
  const hooks = path.join(gitDir, "hooks");
  if (pathExists(hooks)) args.push("--ro-bind", hooks, hooks);
  // Without a hooks directory a command could create one with a hook in it; an empty read-only
  // one takes its place (bwrap leaves the empty directory behind as the mount point).
  else args.push("--tmpfs", hooks, "--remount-ro", hooks);
  const config = path.join(gitDir, "config");
  if (pathExists(config)) args.push("--ro-bind", config, config);
  return args;
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
