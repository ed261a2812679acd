import os from "node:os";
import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { disarmedDrivers } from "./configuredDrivers.js";
import { type GitProcessExit, runGitProcess } from "./gitProcess.js";
import {
  type GitSetting,
  protectedEnvironment,
  protectiveOptions,
  protectiveSettings,
  runsNoDriver,
  settingsEnvironment,
} from "./gitProtections.js";

/** Identity and dates of commits a caller writes: the only variables a caller may add. */
export type GitCommitVariables = Partial<
  Record<
    | "GIT_AUTHOR_NAME"
    | "GIT_AUTHOR_EMAIL"
    | "GIT_AUTHOR_DATE"
    | "GIT_COMMITTER_NAME"
    | "GIT_COMMITTER_EMAIL"
    | "GIT_COMMITTER_DATE",
    string
  >
>;

export interface GitRequest {
  /** The subcommand first, then its arguments; options before the subcommand are the runner's. */
  args: readonly [string, ...string[]];
  /** Where git runs; the repository is found from here unless `repository` pins one. */
  cwd: string;
  /**
   * A repository Lathe owns (the checkpoints' shadow): git dir and work tree explicit, the user's
   * global config left out so nothing in it (filters, drivers) changes what is stored.
   */
  repository?: { gitDir: string; workTree: string };
  /** The caller's settings; the protective ones come after and win. */
  settings?: readonly GitSetting[];
  env?: GitCommitVariables;
  /**
   * The transports a clone, fetch or push may use; none otherwise. Only these two: credential
   * helpers, askpass and the ssh command stay off, so neither can start a program.
   */
  transports?: readonly ("file" | "https")[];
  /** Written to git's standard input. */
  input?: string;
  /** Standard output kept (default unlimited); past it git is stopped and `cut` is set. */
  maxBytes?: number;
  /** Default: 10 minutes, for a snapshot of a large project. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface GitExit {
  /** Null when git was stopped (output cut) or killed by a signal. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
  cut: boolean;
}

export type GitOutcome = { ok: true; value: GitExit } | { ok: false; error: LatheErrorInfo };

const defaultTimeoutMs = 10 * 60 * 1000;
/** The config names of even a heavily configured repository fit in far less. */
const configListBytes = 4 * 1024 * 1024;

/**
 * The one way the engine runs git: every call gets the protective settings, options and
 * environment, and the filter and diff drivers of the config files in play are emptied, so no
 * repository (nor a variable inherited from the caller) makes git start a program. A repository
 * git refuses for belonging to another user (`safe.directory`) is an error: the runner never adds
 * an exception, which would switch that protection off.
 */
export async function runGit(request: GitRequest): Promise<GitOutcome> {
  const [subcommand, ...rest] = request.args;
  if (subcommand.startsWith("-")) {
    return {
      ok: false,
      error: errorInfo("E_INVALID_ARGS", `git needs a subcommand first, not ${subcommand}.`),
    };
  }
  const env = baseEnvironment(request);
  const limits = {
    maxBytes: request.maxBytes ?? Number.POSITIVE_INFINITY,
    timeoutMs: request.timeoutMs ?? defaultTimeoutMs,
    signal: request.signal,
  };
  const protective = [...(request.settings ?? []), ...protectiveSettings];
  // A repository Lathe owns reads only the config Lathe wrote (no global, no system file), which
  // defines no driver: listing it would only double the git processes of every checkpoint.
  const drivers =
    request.repository === undefined && !runsNoDriver(subcommand)
      ? await configuredDrivers(request.cwd, { ...env, ...settingsEnvironment(protective) }, limits)
      : { ok: true as const, settings: [] };
  if (!drivers.ok) return drivers;
  const settings = [...protective, ...drivers.settings];
  const exit = await runGitProcess(["--no-pager", subcommand, ...protectiveOptions(subcommand), ...rest], {
    cwd: request.cwd,
    env: { ...env, ...settingsEnvironment(settings) },
    input: request.input,
    limits,
  });
  const error = failure(request.args, exit, limits.timeoutMs, request.cwd);
  if (error !== undefined) return { ok: false, error };
  const { exitCode, signal, stdout, stderr, cut } = exit;
  return { ok: true, value: { exitCode, signal, stdout, stderr, cut } };
}

/** The settings that empty every filter, diff and merge driver of the config files in play. */
async function configuredDrivers(
  cwd: string,
  env: NodeJS.ProcessEnv,
  limits: { timeoutMs: number; signal: AbortSignal | undefined },
): Promise<{ ok: true; settings: GitSetting[] } | { ok: false; error: LatheErrorInfo }> {
  const listed = await runGitProcess(["--no-pager", "config", "--name-only", "-z", "--list"], {
    cwd,
    env,
    input: undefined,
    limits: { ...limits, maxBytes: configListBytes },
  });
  // Without the list the drivers are unknown, and git must not run with them armed.
  const listFailure = failure(["config"], listed, limits.timeoutMs, cwd);
  if (listFailure !== undefined) return { ok: false, error: listFailure };
  if (listed.exitCode !== 0 || listed.cut) {
    const detail = listed.stderr.trim();
    return {
      ok: false,
      error: errorInfo(
        "E_TOOL_EXECUTION",
        `git could not read its configuration${detail === "" ? "" : `: ${detail}`}`,
      ),
    };
  }
  return { ok: true, settings: disarmedDrivers(listed.stdout.toString("utf8")) };
}

function baseEnvironment(request: GitRequest): NodeJS.ProcessEnv {
  const env = {
    ...protectedEnvironment(process.env),
    ...request.env,
    ...(request.transports === undefined ? {} : { GIT_ALLOW_PROTOCOL: request.transports.join(":") }),
  };
  if (request.repository === undefined) {
    // Reading the user's repository: never take a lock their own git commands could trip over.
    return { ...env, GIT_OPTIONAL_LOCKS: "0" };
  }
  return {
    ...env,
    GIT_DIR: request.repository.gitDir,
    GIT_WORK_TREE: request.repository.workTree,
    GIT_CONFIG_GLOBAL: os.devNull,
  };
}

/** Why a run gave no answer at all; undefined when git ran and exited (or was stopped for output). */
function failure(
  args: readonly string[],
  exit: GitProcessExit,
  timeoutMs: number,
  cwd: string,
): LatheErrorInfo | undefined {
  const command = `git ${args[0] ?? ""}`;
  if (exit.startError !== undefined) {
    if (exit.startError.code === "ENOENT")
      return errorInfo("E_TOOL_EXECUTION", "git is not installed (not found on PATH).");
    return errorInfo("E_TOOL_EXECUTION", `git could not be started: ${exit.startError.message}`);
  }
  if (exit.aborted) return errorInfo("E_CANCELLED", `${command} was cancelled.`);
  if (exit.timedOut)
    return errorInfo("E_TOOL_TIMEOUT", `${command} did not finish within ${timeoutMs} ms and was stopped.`);
  if (/detected dubious ownership/.test(exit.stderr)) {
    return errorInfo(
      "E_SECURITY_BLOCKED",
      `git refuses the repository at ${cwd}: it belongs to another user (git's safe.directory check), and Lathe never overrides that check. If you trust it, add it yourself: git config --global --add safe.directory <path>.`,
    );
  }
  return undefined;
}
