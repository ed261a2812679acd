import { execFile } from "node:child_process";
import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";

export type GitOutput = { ok: true; stdout: string; cut: boolean } | { ok: false; error: LatheErrorInfo };

/** Lines of git's own error shown. */
const stderrLines = 5;

/**
 * Runs a read-only git command in the project, bounded: output beyond `maxBytes` is cut (and said
 * so), a command past `timeoutMs` is killed. No pager, no colour, no prompt for credentials, and
 * no optional locks, so reading never blocks or disturbs the user's own git use.
 */
export function runGit(
  args: readonly string[],
  options: { cwd: string; maxBytes: number; timeoutMs: number; signal: AbortSignal },
): Promise<GitOutput> {
  // core.fsmonitor names a program git would run; a repository's config must not start one here.
  const settings = ["color.ui=false", "core.quotepath=false", "core.fsmonitor=false"];
  const fullArgs = ["--no-pager", ...settings.flatMap((setting) => ["-c", setting]), ...args];
  const env = { ...process.env, GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0", GIT_PAGER: "cat" };
  return new Promise((resolve) => {
    execFile(
      "git",
      fullArgs,
      {
        cwd: options.cwd,
        env,
        maxBuffer: options.maxBytes,
        timeout: options.timeoutMs,
        signal: options.signal,
        encoding: "utf8",
      },
      (error, stdout, stderr) => {
        if (error === null) return resolve({ ok: true, stdout, cut: false });
        const code = "code" in error ? error.code : undefined;
        if (code === "ERR_CHILD_PROCESS_STDIO_MAXBUFFER") return resolve({ ok: true, stdout, cut: true });
        resolve({ ok: false, error: failure(args, error, code, stderr, options) });
      },
    );
  });
}

function failure(
  args: readonly string[],
  error: Error & { killed?: boolean },
  code: unknown,
  stderr: string,
  options: { timeoutMs: number; signal: AbortSignal },
): LatheErrorInfo {
  const command = `git ${args[0] ?? ""}`;
  if (options.signal.aborted) return errorInfo("E_CANCELLED", `${command} was cancelled.`);
  if (code === "ENOENT") return errorInfo("E_TOOL_EXECUTION", "git is not installed (not found on PATH).");
  if (error.killed === true) {
    return errorInfo(
      "E_TOOL_TIMEOUT",
      `${command} did not finish within ${options.timeoutMs} ms and was stopped.`,
    );
  }
  if (/not a git repository/i.test(stderr)) {
    return errorInfo("E_TOOL_EXECUTION", "The project is not a git repository, so @git has nothing to show.");
  }
  const detail = stderr.trim().split("\n").slice(0, stderrLines).join("\n");
  return errorInfo("E_TOOL_EXECUTION", `${command} failed${detail === "" ? "" : `: ${detail}`}`);
}
