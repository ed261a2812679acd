import type { Risk } from "@lathe/protocol";

/**
 * The risk of running a shell command. Until commands are parsed and judged segment by segment
 * (SPEC §5), any command can do anything, so every one of them asks in the default mode.
 */
export function commandRisk(_command: string): Risk {
  return "high";
}
