import { spawn } from "node:child_process";
import os from "node:os";
import { type CheckpointOutcome, fail, succeed } from "./checkpointOutcome.js";

export interface GitRunOptions {
  /** Written to git's stdin (pathspec lists, object ids), so no list ever hits the argv limit. */
  input?: string;
  /** Exit codes that are answers rather than failures (`rev-parse --verify` says 1 for "no such ref"). */
  okExitCodes?: readonly number[];
  env?: Record<string, string>;
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
 * Settings that would make the shadow run user code (hooks), prompt (gpg), rewrite bytes (line
 * endings), change output formats or run gc in the background, outside the operation queue; passed
 * on every call so the shadow's config file never matters.
 */
const fixedConfig = [
  `core.hooksPath=${os.devNull}`,
  "commit.gpgsign=false",
  "core.autocrlf=false",
  "core.safecrlf=false",
  "core.quotepath=false",
  "core.fsmonitor=false",
  "gc.autoDetach=false",
  "init.defaultBranch=lathe",
  "advice.addEmbeddedRepo=false",
];

const stderrLimit = 4000;

/**
 * Git pinned to the shadow repository: GIT_DIR and GIT_WORK_TREE are always explicit and every
 * inherited GIT_* variable is dropped, so nothing the user (or a tool) exported can point these
 * commands at the user's own repository or index.
 */
export class ShadowGit {
  readonly gitDir: string;
  readonly workTree: string;
  private readonly env: NodeJS.ProcessEnv;
  private readonly config: string[];

  constructor(gitDir: string, workTree: string, userExcludesFile: string | undefined) {
    this.gitDir = gitDir;
    this.workTree = workTree;
    this.env = {
      ...withoutGitVariables(process.env),
      ...identity,
      GIT_DIR: gitDir,
      GIT_WORK_TREE: workTree,
      GIT_CONFIG_NOSYSTEM: "1",
      // The user's global config may define clean/smudge filters (LFS) or diff drivers that would
      // make snapshots lossy; only their global ignore file is carried over, below.
      GIT_CONFIG_GLOBAL: os.devNull,
      GIT_TERMINAL_PROMPT: "0",
    };
    const config =
      userExcludesFile === undefined
        ? fixedConfig
        : [...fixedConfig, `core.excludesFile=${userExcludesFile}`];
    this.config = config.flatMap((entry) => ["-c", entry]);
  }

  async run(args: readonly string[], options: GitRunOptions = {}): Promise<CheckpointOutcome<GitResult>> {
    const result = await runGit([...this.config, ...args], {
      cwd: this.workTree,
      env: options.env === undefined ? this.env : { ...this.env, ...options.env },
      input: options.input,
    });
    if (!result.ok) return result;
    const { exitCode, signal, stdout, stderr } = result.value;
    if (exitCode === null) return fail("E_TOOL_EXECUTION", `git ${args[0] ?? ""} was killed by ${signal}`);
    if (exitCode === 0 || options.okExitCodes?.includes(exitCode)) return succeed({ exitCode, stdout });
    return fail("E_TOOL_EXECUTION", describeFailure(args, exitCode, stderr));
  }

  /** Runs git and returns its stdout decoded as UTF-8. */
  async text(args: readonly string[], options: GitRunOptions = {}): Promise<CheckpointOutcome<string>> {
    const result = await this.run(args, options);
    return result.ok ? succeed(result.value.stdout.toString("utf8")) : result;
  }

  /** Runs git with `-z` output and returns the NUL-separated fields. */
  async fields(args: readonly string[], options: GitRunOptions = {}): Promise<CheckpointOutcome<string[]>> {
    const result = await this.text(args, options);
    return result.ok ? succeed(splitNul(result.value)) : result;
  }
}

/**
 * The user's global ignore file, read once with their global config: the shadow runs without that
 * config, yet files the user ignores everywhere (editor swap files, .DS_Store) should stay out too.
 */
export async function userExcludesFile(): Promise<string | undefined> {
  const result = await runGit(["config", "--global", "--type=path", "--get", "core.excludesFile"], {
    cwd: os.tmpdir(),
    env: { ...withoutGitVariables(process.env), GIT_CONFIG_NOSYSTEM: "1" },
    input: undefined,
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

function withoutGitVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.toUpperCase().startsWith("GIT_")));
}

function describeFailure(args: readonly string[], exitCode: number, stderr: string): string {
  const trimmed = stderr.trim();
  const detail = trimmed.length > stderrLimit ? `${trimmed.slice(0, stderrLimit)}…` : trimmed;
  return `git ${args[0] ?? ""} failed (exit ${exitCode})${detail === "" ? "" : `: ${detail}`}`;
}

interface RawGitResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
}

function runGit(
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; input: string | undefined },
): Promise<CheckpointOutcome<RawGitResult>> {
  return new Promise((resolve) => {
    const child = spawn("git", args, { cwd: options.cwd, env: options.env, stdio: ["pipe", "pipe", "pipe"] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    // git may exit before reading all of stdin (an early error); its stderr says why, not EPIPE.
    child.stdin.on("error", () => {});
    child.on("error", (error) => {
      resolve(fail("E_TOOL_EXECUTION", `git could not be started: ${error.message}`));
    });
    child.on("close", (code, signal) => {
      resolve(
        succeed({
          exitCode: code,
          signal,
          stdout: Buffer.concat(stdout),
          stderr: Buffer.concat(stderr).toString("utf8"),
        }),
      );
    });
    child.stdin.end(options.input ?? "");
  });
}
