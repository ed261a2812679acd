import { spawn } from "node:child_process";

export interface GitProcessLimits {
  /** Standard output kept; past it git is stopped and the result says `cut`. */
  maxBytes: number;
  /** Past it git is killed and the result says `timedOut`. */
  timeoutMs: number;
  signal: AbortSignal | undefined;
}

export interface GitProcessExit {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
  cut: boolean;
  timedOut: boolean;
  aborted: boolean;
  /** Set when git could not be started at all (`ENOENT`: not installed). */
  startError?: NodeJS.ErrnoException;
}

const stderrKeptBytes = 64 * 1024;

/** One git process, argv and environment exactly as given, bounded in output and time. */
export function runGitProcess(
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; input: string | undefined; limits: GitProcessLimits },
): Promise<GitProcessExit> {
  const { limits } = options;
  return new Promise((resolve) => {
    const child = spawn("git", args, { cwd: options.cwd, env: options.env, stdio: ["pipe", "pipe", "pipe"] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let stdoutBytes = 0;
    let stderrBytes = 0;
    let cut = false;
    let timedOut = false;
    let aborted = false;
    let startError: NodeJS.ErrnoException | undefined;
    const stop = () => child.kill("SIGKILL");
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, limits.timeoutMs);
    const onAbort = () => {
      aborted = true;
      stop();
    };
    if (limits.signal?.aborted) onAbort();
    limits.signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout.on("data", (chunk: Buffer) => {
      if (cut) return;
      const room = limits.maxBytes - stdoutBytes;
      if (chunk.length > room) {
        stdout.push(chunk.subarray(0, room));
        stdoutBytes = limits.maxBytes;
        cut = true;
        stop();
        return;
      }
      stdout.push(chunk);
      stdoutBytes += chunk.length;
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderrBytes >= stderrKeptBytes) return;
      stderr.push(chunk);
      stderrBytes += chunk.length;
    });
    // git may exit before reading all of stdin (an early error); its stderr says why, not EPIPE.
    child.stdin.on("error", () => {});
    child.on("error", (error: NodeJS.ErrnoException) => {
      startError = error;
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      limits.signal?.removeEventListener("abort", onAbort);
      resolve({
        exitCode: code,
        signal,
        stdout: Buffer.concat(stdout),
        stderr: Buffer.concat(stderr).toString("utf8"),
        cut,
        timedOut,
        aborted,
        startError,
      });
    });
    child.stdin.end(options.input ?? "");
  });
}
