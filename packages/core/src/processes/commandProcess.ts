import { type ChildProcessByStdio, spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import type { Readable } from "node:stream";
import { sandboxProgramArgv } from "../policy/sandbox/sandboxArgv.js";
import { watchSandboxLeftovers } from "../policy/sandbox/sandboxLeftovers.js";
import type { SandboxLaunch } from "../policy/sandbox/sandboxTypes.js";

export type CommandProcess = ChildProcessByStdio<null, Readable, Readable> & {
  /**
   * Set when the process has exited, if the sandbox then removed a git redirection the command
   * had created: the note for the model. Read it in an `exit` or `close` handler or later.
   */
  sandboxNote?: string;
};

/**
 * Starts `program` (an argv: no shell reads it) as the leader of its own process group, so it
 * and everything it starts can be signalled together, with no input (stdin closed) and
 * `environment` as its whole environment.
 *
 * With `sandbox`, it runs inside bubblewrap and the group's leader is bwrap: signalling the group
 * kills bwrap, which ends the sandbox's PID namespace with everything in it. When bwrap exits,
 * what the sandbox leaves in the project is cleaned up (see `watchSandboxLeftovers`) before any
 * other `exit` handler runs.
 */
export function spawnCommandProcess(
  program: readonly [string, ...string[]],
  cwd: string,
  sandbox: SandboxLaunch | undefined,
  environment: NodeJS.ProcessEnv,
): CommandProcess {
  const start = (file: string, args: readonly string[]): CommandProcess =>
    spawn(file, args, { cwd, detached: true, stdio: ["ignore", "pipe", "pipe"], env: environment });
  if (sandbox === undefined) return start(program[0], program.slice(1));
  try {
    mkdirSync(sandbox.tempDir, { recursive: true, mode: 0o700 });
  } catch {
    // bwrap then fails on the missing source and says so on stderr, where the caller sees it.
  }
  const leftovers = watchSandboxLeftovers(sandbox.projectRoot);
  let child: CommandProcess;
  try {
    const argv = sandboxProgramArgv({ ...sandbox, program, cwd });
    child = start(sandbox.bwrapPath, argv.slice(1));
  } catch (error) {
    leftovers.release();
    throw error;
  }
  const release = () => {
    const note = leftovers.release();
    if (note !== undefined) child.sandboxNote = note;
  };
  child.once("exit", release);
  // A bwrap that could not start emits no exit.
  child.once("error", release);
  return child;
}
