import os from "node:os";
import type { GitSetting } from "../git/gitProtections.js";
import { type GitCommitVariables, runGit } from "../git/gitRunner.js";
import { type CheckpointOutcome, fail, succeed } from "./checkpointOutcome.js";

export interface GitRunOptions {
  /** Written to git's stdin (pathspec lists, object ids), so no list ever hits the argv limit. */
  input?: string;
  /** Exit codes that are answers rather than failures (`rev-parse --verify` says 1 for "no such ref"). */
  okExitCodes?: readonly number[];
  env?: GitCommitVariables;
}

export interface GitResult {
  exitCode: number;
  stdout: Buffer;
}

const identity = {
  GIT_AUTHOR_NAME: "Lathe",
  GIT_AUTHOR_EMAIL: "lathe@localhost",
  GIT_COMMITTER_NAME: "Lathe",
  GIT_COMMITTER_EMAIL: "lathe@localhost",
};

/**
 * Settings that would make the shadow prompt (gpg), rewrite bytes (line endings), change output
 * formats or run gc in the background, outside the operation queue; passed on every call so the
 * shadow's config file never matters. Hooks, fsmonitor, filters and the rest are the runner's.
 */
const shadowSettings: readonly GitSetting[] = [
  ["commit.gpgsign", "false"],
  ["core.autocrlf", "false"],
  ["core.safecrlf", "false"],
  ["gc.autoDetach", "false"],
  ["init.defaultBranch", "lathe"],
  ["advice.addEmbeddedRepo", "false"],
];

const stderrLimit = 4000;

/**
 * Git pinned to the shadow repository: the git dir and work tree are always explicit and the
 * runner drops every inherited GIT_* variable, so nothing the user (or a tool) exported can point
 * these commands at the user's own repository or index. The user's global config is left out too:
 * it may define clean/smudge filters (LFS) or diff drivers that would make snapshots lossy; only
 * their global ignore file is carried over.
 */
export class ShadowGit {
  readonly gitDir: string;
  readonly workTree: string;
  private readonly settings: readonly GitSetting[];

  constructor(gitDir: string, workTree: string, userExcludesFile: string | undefined) {
    this.gitDir = gitDir;
    this.workTree = workTree;
    this.settings =
      userExcludesFile === undefined
        ? shadowSettings
        : [...shadowSettings, ["core.excludesFile", userExcludesFile]];
  }

  async run(
    args: readonly [string, ...string[]],
    options: GitRunOptions = {},
  ): Promise<CheckpointOutcome<GitResult>> {
    const result = await runGit({
      args,
      cwd: this.workTree,
      repository: { gitDir: this.gitDir, workTree: this.workTree },
      settings: this.settings,
      env: { ...identity, ...options.env },
      input: options.input,
    });
    if (!result.ok) return result;
    const { exitCode, signal, stdout, stderr } = result.value;
    if (exitCode === null) return fail("E_TOOL_EXECUTION", `git ${args[0]} was killed by ${signal}`);
    if (exitCode === 0 || options.okExitCodes?.includes(exitCode)) return succeed({ exitCode, stdout });
    return fail("E_TOOL_EXECUTION", describeFailure(args, exitCode, stderr));
  }

  /** Runs git and returns its stdout decoded as UTF-8. */
  async text(
    args: readonly [string, ...string[]],
    options: GitRunOptions = {},
  ): Promise<CheckpointOutcome<string>> {
    const result = await this.run(args, options);
    return result.ok ? succeed(result.value.stdout.toString("utf8")) : result;
  }

  /** Runs git with `-z` output and returns the NUL-separated fields. */
  async fields(
    args: readonly [string, ...string[]],
    options: GitRunOptions = {},
  ): Promise<CheckpointOutcome<string[]>> {
    const result = await this.text(args, options);
    return result.ok ? succeed(splitNul(result.value)) : result;
  }
}

/**
 * The user's global ignore file, read once with their global config: the shadow runs without that
 * config, yet files the user ignores everywhere (editor swap files, .DS_Store) should stay out too.
 */
export async function userExcludesFile(): Promise<string | undefined> {
  const result = await runGit({
    args: ["config", "--global", "--type=path", "--get", "core.excludesFile"],
    cwd: os.tmpdir(),
  });
  if (!result.ok || result.value.exitCode !== 0) return undefined;
  const file = result.value.stdout.toString("utf8").trim();
  return file === "" ? undefined : file;
}

export function splitNul(output: string): string[] {
  const fields = output.split("\0");
  if (fields.at(-1) === "") fields.pop();
  return fields;
}

function describeFailure(args: readonly string[], exitCode: number, stderr: string): string {
  const trimmed = stderr.trim();
  const detail = trimmed.length > stderrLimit ? `${trimmed.slice(0, stderrLimit)}…` : trimmed;
  return `git ${args[0] ?? ""} failed (exit ${exitCode})${detail === "" ? "" : `: ${detail}`}`;
}
