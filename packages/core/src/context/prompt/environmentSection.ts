import type { EnvironmentFacts } from "./environment.js";
import type { GitFacts } from "./gitSummary.js";

/** The lines of `<environment>`. */
export function environmentLines(facts: EnvironmentFacts): string[] {
  const lines = [
    `Operating system: ${facts.os}`,
    `Shell: ${facts.shell}`,
    `Date: ${facts.date}`,
    `Working directory: ${facts.cwd}`,
  ];
  if (facts.git === undefined) return [...lines, "Git: not a git repository, or git is not available"];
  return [...lines, `Git: ${gitState(facts.git)}`, ...commitLines(facts.git.recentCommits)];
}

function gitState(git: GitFacts): string {
  const parts = [git.branch === undefined ? "detached HEAD" : `branch ${git.branch}`];
  const upstream = upstreamState(git);
  if (upstream !== undefined) parts.push(upstream);
  parts.push(dirtyState(git.dirtyFiles));
  return parts.join("; ");
}

function upstreamState({ ahead, behind }: GitFacts): string | undefined {
  if (ahead === undefined || behind === undefined) return undefined;
  if (ahead === 0 && behind === 0) return "up to date with its upstream";
  return `${ahead} ahead, ${behind} behind its upstream`;
}

function dirtyState(dirtyFiles: number): string {
  if (dirtyFiles === 0) return "no uncommitted changes";
  return `${dirtyFiles} ${dirtyFiles === 1 ? "file" : "files"} with uncommitted changes`;
}

function commitLines(commits: readonly string[]): string[] {
  if (commits.length === 0) return ["Recent commits: none"];
  return ["Recent commits:", ...commits.map((commit) => `- ${commit}`)];
}
