import { existsSync } from "node:fs";
import path from "node:path";
import { runGit } from "../../git/gitRunner.js";

/** The state of the project's git repository, as the model sees it in `<environment>`. */
export interface GitFacts {
  /** Undefined on a detached HEAD. */
  branch?: string;
  /** Changed, staged, conflicted and untracked entries (an untracked folder counts once). */
  dirtyFiles: number;
  /** Both undefined when the branch has no upstream. */
  ahead?: number;
  behind?: number;
  /** "abc1234 subject", newest first, at most `maxCommits`. */
  recentCommits: string[];
}

/** The prompt is built before every run; a slow repository must not hold it up. */
const gitTimeoutMs = 2000;
const maxCommits = 5;
const maxSubjectChars = 120;
/** Status of a large dirty tree can be long; past this it is not worth waiting for. */
const maxOutputBytes = 16 * 1024 * 1024;

/** Undefined when `directory` is not in a git work tree, git is missing, or it did not answer in time. */
export async function readGitSummary(directory: string): Promise<GitFacts | undefined> {
  if (!mayBeInRepository(directory)) return undefined;
  const [status, log] = await Promise.all([
    gitOutput(directory, ["status", "--porcelain=v2", "--branch"]),
    gitOutput(directory, ["log", `-n${maxCommits}`, "--format=%h %s"]),
  ]);
  if (status === undefined) return undefined;
  // A repository without commits has no log; that is not a failure.
  const recentCommits = (log ?? "")
    .split("\n")
    .filter((line) => line !== "")
    .map(shortenSubject);
  return { ...parseStatus(status), recentCommits };
}

/**
 * Git finds a repository only through a `.git` entry in the directory or one above it: the runner
 * drops every GIT_* variable that could point elsewhere. Without one, git would only say "not a
 * repository", after three processes (its config, status and log) on the way to the first request.
 */
function mayBeInRepository(directory: string): boolean {
  for (let current = path.resolve(directory); ; current = path.dirname(current)) {
    if (existsSync(path.join(current, ".git"))) return true;
    if (path.dirname(current) === current) return false;
  }
}

function parseStatus(output: string): Omit<GitFacts, "recentCommits"> {
  const facts: Omit<GitFacts, "recentCommits"> = { dirtyFiles: 0 };
  for (const line of output.split("\n")) {
    if (line === "") continue;
    if (!line.startsWith("# ")) {
      facts.dirtyFiles++;
      continue;
    }
    const head = /^# branch\.head (.+)$/.exec(line);
    if (head?.[1] !== undefined && head[1] !== "(detached)") facts.branch = head[1];
    const aheadBehind = /^# branch\.ab \+(\d+) -(\d+)$/.exec(line);
    if (aheadBehind !== null) {
      facts.ahead = Number(aheadBehind[1]);
      facts.behind = Number(aheadBehind[2]);
    }
  }
  return facts;
}

function shortenSubject(line: string): string {
  return line.length <= maxSubjectChars ? line : `${line.slice(0, maxSubjectChars - 1)}…`;
}

/** Git's standard output, or undefined on any failure (not a repository, no git, timeout, cut). */
async function gitOutput(cwd: string, args: [string, ...string[]]): Promise<string | undefined> {
  const result = await runGit({ args, cwd, timeoutMs: gitTimeoutMs, maxBytes: maxOutputBytes });
  if (!result.ok || result.value.exitCode !== 0 || result.value.cut) return undefined;
  return result.value.stdout.toString("utf8");
}
