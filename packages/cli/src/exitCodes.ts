import type { RunResult } from "@lathe/core";
import type { ToolRoundOutcome } from "./finalToolRound.js";

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

/**
 * The exit code of a run, given how the calls of its last round of tool calls ended. A run that
 * ended on its own (completed, or stopped by the loop detector) is "denied with no way forward"
 * when that round had a call denied (by a rule, a hard block or a hook, or rejected for want of
 * approval) and none of its calls completed: the model stopped at the denial.
 */
export function exitCodeFor(result: RunResult, finalRound?: ToolRoundOutcome): number {
  const stoppedAtDenial = finalRound !== undefined && finalRound.denied > 0 && finalRound.completed === 0;
  switch (result.status) {
    case "completed":
      return stoppedAtDenial ? exitCodes.denied : exitCodes.completed;
    case "iteration_limit":
      return exitCodes.iterationLimit;
    case "cancelled":
      return exitCodes.cancelled;
    case "loop_detected":
      return stoppedAtDenial ? exitCodes.denied : exitCodes.error;
    case "failed":
      return result.error?.code === "E_LLM_AUTH" ? exitCodes.auth : exitCodes.error;
  }
}
