import { type ChildProcessByStdio, spawn } from "node:child_process";
import type { Readable } from "node:stream";

export type ShellProcess = ChildProcessByStdio<null, Readable, Readable>;

/**
 * Starts `bash -c command` as the leader of its own process group, so the command and everything
 * it starts can be signalled together. There is no input: stdin is closed, so a prompt fails
 * instead of waiting forever.
 */
export function spawnShell(command: string, cwd: string): ShellProcess {
  return spawn("bash", ["-c", command], {
    cwd,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: commandEnvironment(),
  });
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
