import { spawn } from "node:child_process";
import { signalProcessGroup } from "../processes/processGroup.js";

export interface HookProcessOptions {
  command: string;
  cwd: string;
  stdin: string;
  /**
   * The user's environment as it is, keys included: hooks are programs the user configured (and,
   * in a project, trusted), which may need them, as in Claude Code. Model-requested commands get
   * `commandEnvironment` instead.
   */
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Per stream; beyond it the output is cut and `truncated` set. */
  outputCapBytes: number;
  signal: AbortSignal | undefined;
}

export interface HookProcessResult {
  /** Null when the hook was ended by a signal, never started, timed out or was cancelled. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  truncated: boolean;
  timedOut: boolean;
  cancelled: boolean;
  /** Why `bash` could not be started (missing directory, no bash). */
  spawnError?: string;
  /** Process group id, for tests and diagnostics. */
  pid: number | undefined;
}

/**
 * After the group is killed, how long to wait for the pipes to close before giving up on them:
 * a descendant that left the group (`setsid`) can hold them open forever.
 */
const pipeDrainMs = 1000;

/**
 * Runs one hook as `bash -c command`, leading its own process group so that a timeout or a cancel
 * kills the hook and everything it started, with the event's JSON on stdin.
 */
export function runHookProcess(options: HookProcessOptions): Promise<HookProcessResult> {
  return new Promise((resolve) => {
    const stdout = new CappedBuffer(options.outputCapBytes);
    const stderr = new CappedBuffer(options.outputCapBytes);
    let timedOut = false;
    let cancelled = false;
    let spawnError: string | undefined;
    let settled = false;

    const child = spawn("bash", ["-c", options.command], {
      cwd: options.cwd,
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
      env: options.env,
    });

    const kill = () => {
      if (child.pid !== undefined) signalProcessGroup(child.pid, "SIGKILL");
      // Normally the pipes close once the group is dead; if not, stop waiting for them.
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
      }, pipeDrainMs).unref();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, options.timeoutMs);
    const onAbort = () => {
      cancelled = true;
      kill();
    };
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener("abort", onAbort, { once: true });

    const finish = (exitCode: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      const result: HookProcessResult = {
        exitCode: timedOut || cancelled ? null : exitCode,
        signal,
        stdout: stdout.text(),
        stderr: stderr.text(),
        truncated: stdout.truncated || stderr.truncated,
        timedOut,
        cancelled,
        pid: child.pid,
      };
      if (spawnError !== undefined) result.spawnError = spawnError;
      resolve(result);
    };

    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    // A hook that exits without reading its input closes the pipe under us (EPIPE): not an error.
    child.stdin.on("error", () => {});
    child.stdin.end(options.stdin);
    child.on("error", (error) => {
      spawnError = error.message;
      finish(null, null);
    });
    child.on("close", finish);
  });
}

/** Keeps the first `cap` bytes of a stream. */
class CappedBuffer {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  truncated = false;

  constructor(private readonly cap: number) {}

  push(chunk: Buffer): void {
    const room = this.cap - this.size;
    if (chunk.length > room) this.truncated = true;
    if (room <= 0) return;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(kept);
    this.size += kept.length;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString("utf8");
  }
}
