import { execFileSync } from "node:child_process";

/** Git with no user or system configuration and a fixed identity, so tests see only what they set up. */
export function isolatedGit(cwd: string, ...args: string[]): string {
  return runGit(cwd, args, {});
}

/** The same with a fixed clock too, for tests that show commit dates. */
export function isolatedGitAt(date: string, cwd: string, ...args: string[]): string {
  return runGit(cwd, args, { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
}

function runGit(cwd: string, args: string[], clock: Record<string, string>): string {
  return execFileSync("git", ["-c", "commit.gpgsign=false", ...args], {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_AUTHOR_NAME: "Ada",
      GIT_AUTHOR_EMAIL: "ada@example.com",
      GIT_COMMITTER_NAME: "Ada",
      GIT_COMMITTER_EMAIL: "ada@example.com",
      ...clock,
    },
  }).trim();
}
