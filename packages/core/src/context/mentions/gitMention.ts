import { errorInfo } from "@lathe/protocol";
import type { Mention } from "./mention.js";
import type { MentionOutcome, ResolverContext } from "./mentionSources.js";
import { type GitOutput, runGit } from "./runGit.js";

/** A commit as git accepts it: a hash, a branch, `HEAD~2`; never something that reads as an option. */
const revision = /^[0-9A-Za-z][\w./~^-]*$/;

/**
 * `@git diff` (what changed since the last commit, staged and not, plus untracked files),
 * `@git log` (the latest commits) and `@git commit <sha>` (one commit with its patch).
 */
export async function resolveGit(mention: Mention, context: ResolverContext): Promise<MentionOutcome> {
  const [subcommand, target, ...extra] = mention.argument.split(/\s+/);
  if (subcommand === "diff" && target === undefined) return gitDiff(context);
  if (subcommand === "log" && target === undefined) return gitLog(context);
  if (subcommand === "commit" && target !== undefined && extra.length === 0) {
    if (!revision.test(target)) {
      return { type: "error", error: errorInfo("E_INVALID_ARGS", `"${target}" is not a commit id.`) };
    }
    const shown = await git(context, ["show", "--stat", "--patch", "--format=fuller", target, "--"]);
    return shown.ok ? attachment(`git commit ${target}`, shown) : { type: "error", error: shown.error };
  }
  const message = `@git ${mention.argument} is not supported; use @git diff, @git log or @git commit <sha>.`;
  return { type: "error", error: errorInfo("E_INVALID_ARGS", message) };
}

async function gitDiff(context: ResolverContext): Promise<MentionOutcome> {
  // Staged and unstaged apart, since `git diff HEAD` fails in a repository with no commit yet.
  const status = await git(context, ["status", "--short"]);
  if (!status.ok) return { type: "error", error: status.error };
  const staged = await git(context, ["diff", "--cached"]);
  if (!staged.ok) return { type: "error", error: staged.error };
  const unstaged = await git(context, ["diff"]);
  if (!unstaged.ok) return { type: "error", error: unstaged.error };
  if (status.stdout.trim() === "") {
    return {
      type: "attachment",
      title: "git diff",
      text: "No changes: the working tree matches the last commit.",
    };
  }
  const sections = [`git status --short:\n${withCutNote(status)}`];
  if (staged.stdout !== "") sections.push(`Staged (git diff --cached):\n${withCutNote(staged)}`);
  if (unstaged.stdout !== "") sections.push(`Not staged (git diff):\n${withCutNote(unstaged)}`);
  return { type: "attachment", title: "git diff", text: sections.join("\n\n") };
}

async function gitLog(context: ResolverContext): Promise<MentionOutcome> {
  const log = await git(context, [
    "log",
    `--max-count=${context.limit.gitLogCommits}`,
    "--date=short",
    "--format=%h %ad %an%n    %s",
  ]);
  return log.ok ? attachment("git log", log) : { type: "error", error: log.error };
}

function git(context: ResolverContext, args: [string, ...string[]]): Promise<GitOutput> {
  return runGit(args, {
    cwd: context.projectRoot,
    maxBytes: context.limit.gitMaxBytes,
    timeoutMs: context.limit.gitTimeoutMs,
    signal: context.signal,
  });
}

function attachment(title: string, output: GitOutput & { ok: true }): MentionOutcome {
  return { type: "attachment", title, text: withCutNote(output) };
}

function withCutNote(output: GitOutput & { ok: true }): string {
  const text = output.stdout.trimEnd();
  return output.cut ? `${text}\n[Output cut: git printed more than the limit.]` : text;
}
