import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import type { BackgroundTerminals } from "./backgroundTerminals.js";

/** The error for an id the session does not know, with the ids the model can use instead. */
export function unknownTerminalError(id: string, terminals: BackgroundTerminals): LatheErrorInfo {
  const running = terminals
    .list()
    .filter((terminal) => terminal.status.state === "running")
    .map((terminal) => `${terminal.id} (${terminal.command})`);
  const known =
    running.length > 0
      ? `Running: ${running.join(", ")}.`
      : "No background command is running; start one with run_terminal_cmd and is_background: true.";
  return errorInfo("E_INVALID_ARGS", `No background command with id "${id}". ${known}`);
}
