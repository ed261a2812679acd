import { lstatSync, rmdirSync, type Stats, unlinkSync } from "node:fs";
import path from "node:path";
import { configDirectories } from "./configProtection.js";
import { projectGitDirs, protectedGitDirectories } from "./gitProtection.js";

/**
 * Files of a git dir that cannot be stood in for (an empty one breaks git), so a sandboxed
 * command can create them when missing. Either points git at other configuration: `commondir` at
 * another repository's, `config.worktree` adds config wherever `extensions.worktreeConfig` is on.
 */
const plantableGitFiles = ["commondir", "config.worktree"];

/**
 * `standIn`: an empty directory bwrap made as a mount point; removed when still empty.
 * `gitFile`: a file that redirects git; removed and reported. `gitLink`: a `.git` file or link in
 * a project that had no `.git`, pointing git at a repository elsewhere; removed and reported.
 */
type LeftoverKind = "standIn" | "gitFile" | "gitLink";

interface WatchedPath {
  kind: LeftoverKind;
  /** Live sandboxed processes of this Node process that may have it mounted. */
  users: number;
  /** Missing when the first of them started. */
  absent: boolean;
}

/**
 * Process-wide, because mounts are: removing a directory that another live sandbox has mounted
 * would detach that mount (the kernel allows it from outside that namespace) and open the
 * protected path to that command. So a leftover is removed only when its last user has ended.
 */
const watched = new Map<string, WatchedPath>();

export interface SandboxLeftovers {
  /**
   * Called once the sandboxed process has exited. Removes the stand-ins that did not exist before
   * (rmdir: only when still empty) and the git redirections the command created; returns the
   * note for the model when it removed one of the latter.
   */
  release(): string | undefined;
}

/**
 * Notes, before a sandbox is set up for `projectRoot`, which protected paths are missing, so that
 * `release` can remove what bwrap or the command created there. Call it before building the argv.
 */
export function watchSandboxLeftovers(projectRoot: string): SandboxLeftovers {
  const root = path.resolve(projectRoot);
  const candidates = leftoverCandidates(root);
  for (const [target, kind] of candidates) {
    const entry = watched.get(target);
    if (entry === undefined) watched.set(target, { kind, users: 1, absent: !exists(target) });
    else entry.users += 1;
  }
  let released = false;
  return {
    release() {
      if (released) return undefined;
      released = true;
      const removed: string[] = [];
      for (const [target] of candidates) {
        const entry = watched.get(target);
        if (entry === undefined) continue;
        entry.users -= 1;
        if (entry.users > 0) continue;
        watched.delete(target);
        if (entry.absent && removeLeftover(root, target, entry.kind)) removed.push(target);
      }
      return removed.length === 0 ? undefined : removedNote(root, removed);
    },
  };
}

/** In removal order: files inside `.git` before `.git` itself. */
function leftoverCandidates(root: string): Array<[string, LeftoverKind]> {
  const candidates: Array<[string, LeftoverKind]> = [];
  const gitDir = path.join(root, ".git");
  const gitDirs = projectGitDirs(root);
  const noGit = !exists(gitDir);
  for (const dir of noGit ? [gitDir] : gitDirs) {
    for (const name of plantableGitFiles) candidates.push([path.join(dir, name), "gitFile"]);
  }
  if (noGit) candidates.push([gitDir, "gitLink"]);
  for (const dir of gitDirs) {
    for (const name of protectedGitDirectories) candidates.push([path.join(dir, name), "standIn"]);
  }
  for (const name of configDirectories) candidates.push([path.join(root, name), "standIn"]);
  return candidates;
}

/** True when it removed a git redirection, which the model is told about. */
function removeLeftover(root: string, target: string, kind: LeftoverKind): boolean {
  // Every directory between the project and the target must be a real one: a parent swapped for
  // a link would carry the removal to another repository's own file.
  if (!realDirectoriesBetween(root, path.dirname(target))) return false;
  const stats = lstatOrUndefined(target);
  if (stats === undefined) return false;
  try {
    if (kind === "standIn") {
      if (stats.isDirectory()) rmdirSync(target);
      return false;
    }
    if (stats.isDirectory()) return false;
    unlinkSync(target);
    return true;
  } catch {
    // Not empty (something real was put there), or already gone: either way it stays as it is.
    return false;
  }
}

function removedNote(root: string, removed: readonly string[]): string {
  const names = removed.map((target) => path.relative(root, target)).join(", ");
  return (
    `[sandbox] Removed ${names} after the command ended: it did not exist before the command, ` +
    "and git run outside the sandbox would follow it to another repository's configuration, " +
    "which can run hooks and fsmonitor programs on the user's machine. Do not create it again."
  );
}

function realDirectoriesBetween(root: string, directory: string): boolean {
  const relative = path.relative(root, directory);
  if (relative.startsWith("..") || path.isAbsolute(relative)) return false;
  let current = root;
  for (const part of relative === "" ? [] : relative.split(path.sep)) {
    current = path.join(current, part);
    if (lstatOrUndefined(current)?.isDirectory() !== true) return false;
  }
  return true;
}

function exists(target: string): boolean {
  return lstatOrUndefined(target) !== undefined;
}

function lstatOrUndefined(target: string): Stats | undefined {
  try {
    return lstatSync(target, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}
