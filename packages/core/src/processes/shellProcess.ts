import type { SandboxLaunch } from "../policy/sandbox/sandboxTypes.js";
import { type CommandEnvironmentSettings, commandEnvironment } from "./commandEnvironment.js";
import { type CommandProcess, spawnCommandProcess } from "./commandProcess.js";

export type ShellProcess = CommandProcess;

/**
 * Starts `bash -c command` as the leader of its own process group (see `spawnCommandProcess`).
 * There is no input: stdin is closed, so a prompt fails instead of waiting forever.
 *
 * With `sandbox`, bash runs inside bubblewrap. A command killed by a signal inside then shows as
 * bwrap's exit code 128 + signal; `sandboxNote` tells what the sandbox undid after it.
 *
 * The command sees `commandEnvironment`: the user's environment without its secrets.
 */
export function spawnShell(
  command: string,
  cwd: string,
  sandbox?: SandboxLaunch,
  environment: CommandEnvironmentSettings = {},
): ShellProcess {
  return spawnCommandProcess(["bash", "-c", command], cwd, sandbox, commandEnvironment(environment));
}
