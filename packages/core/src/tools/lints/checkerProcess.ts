import { spawn } from "node:child_process";
import { signalProcessGroup } from "../../processes/processGroup.js";

/** Output kept per stream; a checker printing more than this is reported as failed. */
const maxStreamBytes = 16 * 1024 * 1024;

export type CheckerExit =
  | { kind: "exited"; code: number | null; stdout: string; stderr: string }
  | { kind: "timeout" }
  | { kind: "cancelled" }
  | { kind: "failed"; message: string };

/**
 * Runs one checker as an argv array in the project root, in its own process group so that a
 * timeout or cancel kills it with whatever it started (tsc workers, go's compiler).
 */
export function runCheckerProcess(
  executable: string,
  args: readonly string[],
  cwd: string,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<CheckerExit> {
  if (signal.aborted) return Promise.resolve({ kind: "cancelled" });
  return new Promise((resolve) => {
    const child = spawn(executable, args, {
      cwd,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: checkerEnvironment(),
    });
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
      resolve(exit);
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

/** Colours and pagers off: the output is parsed. */
function checkerEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", GIT_PAGER: "cat", PAGER: "cat" };
  delete env.FORCE_COLOR;
  return env;
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
