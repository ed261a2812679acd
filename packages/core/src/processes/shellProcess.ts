import { type ChildProcessByStdio, spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import type { Readable } from "node:stream";
import { sandboxArgv } from "../policy/sandbox/sandboxArgv.js";
import type { SandboxLaunch } from "../policy/sandbox/sandboxTypes.js";
import { type CommandEnvironmentSettings, commandEnvironment } from "./commandEnvironment.js";

export type ShellProcess = ChildProcessByStdio<null, Readable, Readable>;

/**
 * Starts `bash -c command` as the leader of its own process group, so the command and everything
 * it starts can be signalled together. There is no input: stdin is closed, so a prompt fails
 * instead of waiting forever.
 *
 * With `sandbox`, bash runs inside bubblewrap and the group's leader is bwrap: signalling the
 * group kills bwrap, which ends the sandbox's PID namespace with everything in it. A command
 * killed by a signal inside then shows as bwrap's exit code 128 + signal.
 *
 * The command sees `commandEnvironment`: the user's environment without its secrets.
 */
export function spawnShell(
  command: string,
  cwd: string,
  sandbox?: SandboxLaunch,
  environment: CommandEnvironmentSettings = {},
): ShellProcess {
  const [file, args]: [string, string[]] =
    sandbox === undefined ? ["bash", ["-c", command]] : sandboxedBash(command, cwd, sandbox);
  return spawn(file, args, {
    cwd,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: commandEnvironment(environment),
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
