import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { runGit as runProtectedGit } from "../../git/gitRunner.js";

export type GitOutput = { ok: true; stdout: string; cut: boolean } | { ok: false; error: LatheErrorInfo };

/** Lines of git's own error shown. */
const stderrLines = 5;

/**
 * Runs a read-only git command in the project through the engine's git runner, bounded: output
 * beyond `maxBytes` is cut (and said so), a command past `timeoutMs` is stopped.
 */
export async function runGit(
  args: readonly [string, ...string[]],
  options: { cwd: string; maxBytes: number; timeoutMs: number; signal: AbortSignal },
): Promise<GitOutput> {
  const result = await runProtectedGit({
    args,
    cwd: options.cwd,
    maxBytes: options.maxBytes,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
  });
  if (!result.ok) return result;
  const { exitCode, stdout, stderr, cut } = result.value;
  if (cut) return { ok: true, stdout: stdout.toString("utf8"), cut: true };
  if (exitCode === 0) return { ok: true, stdout: stdout.toString("utf8"), cut: false };
  return { ok: false, error: failure(args, stderr) };
}

function failure(args: readonly string[], stderr: string): LatheErrorInfo {
  if (/not a git repository/i.test(stderr)) {
    return errorInfo("E_TOOL_EXECUTION", "The project is not a git repository, so @git has nothing to show.");
  }
  const detail = stderr.trim().split("\n").slice(0, stderrLines).join("\n");
  return errorInfo("E_TOOL_EXECUTION", `git ${args[0] ?? ""} failed${detail === "" ? "" : `: ${detail}`}`);
}
