import type { SandboxLaunch } from "../../policy/sandbox/sandboxTypes.js";
import { spawnCommandProcess } from "../../processes/commandProcess.js";
import { signalProcessGroup } from "../../processes/processGroup.js";

/** Output kept per stream; a checker printing more than this is reported as failed. */
const maxStreamBytes = 16 * 1024 * 1024;

export type CheckerExit = (
  | { kind: "exited"; code: number | null; stdout: string; stderr: string }
  | { kind: "timeout" }
  | { kind: "cancelled" }
  | { kind: "failed"; message: string }
) & { sandboxNote?: string };

/** Where and how a checker process runs. */
export interface CheckerLaunch {
  cwd: string;
  /** Its whole environment: `commandEnvironment`'s, as for the model's commands. */
  environment: NodeJS.ProcessEnv;
  /** The sandbox it runs in; absent only when the session runs commands unsandboxed too. */
  sandbox?: SandboxLaunch;
  timeoutMs: number;
  signal: AbortSignal;
}

/**
 * Runs one checker as an argv array (no shell), in its own process group so that a timeout or
 * cancel kills it with whatever it started (tsc workers, go's compiler). A checker runs the
 * project's own code (its ESLint config, its `node_modules/.bin/tsc`), which the model may have
 * written, so it runs in the session's sandbox like a command.
 */
export function runCheckerProcess(
  executable: string,
  args: readonly string[],
  launch: CheckerLaunch,
): Promise<CheckerExit> {
  const { signal, timeoutMs } = launch;
  if (signal.aborted) return Promise.resolve({ kind: "cancelled" });
  return new Promise((resolve) => {
    const child = spawnCommandProcess([executable, ...args], launch.cwd, launch.sandbox, launch.environment);
    const stdout = new CappedText();
    const stderr = new CappedText();
    let stopped: "timeout" | "cancelled" | undefined;
    const stop = (reason: "timeout" | "cancelled") => {
      stopped ??= reason;
      if (child.pid !== undefined) signalProcessGroup(child.pid, "SIGKILL");
    };
    const onAbort = () => stop("cancelled");
    const timer = setTimeout(() => stop("timeout"), timeoutMs);
    signal.addEventListener("abort", onAbort, { once: true });
    const finish = (exit: CheckerExit) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      resolve(child.sandboxNote === undefined ? exit : { ...exit, sandboxNote: child.sandboxNote });
    };
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", (error) => finish({ kind: "failed", message: error.message }));
    child.on("close", (code) => {
      if (stopped !== undefined) return finish({ kind: stopped });
      if (stdout.overflowed || stderr.overflowed) {
        return finish({ kind: "failed", message: `it printed more than ${maxStreamBytes / 2 ** 20} MB` });
      }
      finish({ kind: "exited", code, stdout: stdout.text(), stderr: stderr.text() });
    });
  });
}

class CappedText {
  private readonly chunks: Buffer[] = [];
  private bytes = 0;
  overflowed = false;

  push(chunk: Buffer): void {
    if (this.overflowed) return;
    this.bytes += chunk.length;
    if (this.bytes > maxStreamBytes) {
      this.overflowed = true;
      this.chunks.length = 0;
      return;
    }
    this.chunks.push(chunk);
  }

  text(): string {
    return Buffer.concat(this.chunks).toString("utf8");
  }
}
