import type { RunResult } from "@lathe/core";

/** Exit codes of a headless run (SPEC §1). */
export const exitCodes = {
  completed: 0,
  error: 1,
  usage: 2,
  iterationLimit: 3,
  cancelled: 4,
  denied: 5,
  auth: 6,
} as const;

export function exitCodeFor(result: RunResult): number {
  switch (result.status) {
    case "completed":
      return exitCodes.completed;
    case "iteration_limit":
      return exitCodes.iterationLimit;
    case "cancelled":
      return exitCodes.cancelled;
    case "loop_detected":
      return exitCodes.error;
    case "failed":
      return result.error?.code === "E_LLM_AUTH" ? exitCodes.auth : exitCodes.error;
  }
}
