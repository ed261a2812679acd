import { homedir } from "node:os";
import { join } from "node:path";

/** `$LATHE_HOME`, default `~/.lathe`: sessions, logs, spilled tool output, credentials. */
export function latheHomeFrom(env: Record<string, string | undefined>): string {
  return env.LATHE_HOME || join(homedir(), ".lathe");
}
