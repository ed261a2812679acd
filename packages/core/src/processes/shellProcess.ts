import { type ChildProcessByStdio, spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import type { Readable } from "node:stream";
import { sandboxArgv } from "../policy/sandbox/sandboxArgv.js";
import type { SandboxLaunch } from "../policy/sandbox/sandboxTypes.js";

export type ShellProcess = ChildProcessByStdio<null, Readable, Readable>;

/**
 * Starts `bash -c command` as the leader of its own process group, so the command and everything
 * it starts can be signalled together. There is no input: stdin is closed, so a prompt fails
 * instead of waiting forever.
 *
 * With `sandbox`, bash runs inside bubblewrap and the group's leader is bwrap: signalling the
 * group kills bwrap, which ends the sandbox's PID namespace with everything in it. A command
 * killed by a signal inside then shows as bwrap's exit code 128 + signal.
 */
export function spawnShell(command: string, cwd: string, sandbox?: SandboxLaunch): ShellProcess {
  const [file, args]: [string, string[]] =
    sandbox === undefined ? ["bash", ["-c", command]] : sandboxedBash(command, cwd, sandbox);
  return spawn(file, args, {
    cwd,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: commandEnvironment(),
  });
}

function sandboxedBash(command: string, cwd: string, sandbox: SandboxLaunch): [string, string[]] {
  try {
    mkdirSync(sandbox.tempDir, { recursive: true, mode: 0o700 });
  } catch {
    // bwrap then fails on the missing source and says so on stderr, where the caller sees it.
  }
  return [sandbox.bwrapPath, sandboxArgv({ ...sandbox, command, cwd }).slice(1)];
}

/** The environment of the user, with pagers, prompts and colours that would confuse a model turned off. */
function commandEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LATHE: "1",
    PAGER: "cat",
    GIT_PAGER: "cat",
    GIT_TERMINAL_PROMPT: "0",
    NO_COLOR: "1",
  };
  // Either would turn colours back on (and Node warns when one is set beside NO_COLOR).
  delete env.FORCE_COLOR;
  delete env.CLICOLOR_FORCE;
  return env;
}
