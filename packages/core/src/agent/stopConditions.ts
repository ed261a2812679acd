import { errorInfo, type LatheErrorInfo, type RunEndReason, type TodoItem } from "@lathe/protocol";
import { stopGuard } from "../planning/stopGuard.js";
import type { LoopWarning } from "./modelTurn.js";
import type { RunProgress } from "./runProgress.js";

/**
 * What happens after a turn: the run goes on (with a note to the model, perhaps) or ends. Each
 * way a run can end or go on is one small function below; the loop asks them in order.
 */
export type RunVerdict = { kind: "continue"; reminder?: string } | RunEnding;

export interface RunEnding {
  kind: "finish";
  status: RunEndReason;
  error?: LatheErrorInfo;
}

export const goOn: RunVerdict = { kind: "continue" };

export function finishWith(status: RunEndReason, error?: LatheErrorInfo): RunEnding {
  return error ? { kind: "finish", status, error } : { kind: "finish", status };
}

/** After `max` tool rounds the run stops; the user can send "continue" to go on. */
export function iterationLimit(run: RunProgress, max: number): RunEnding | undefined {
  if (run.iterations < max) return undefined;
  run.final ||= `Stopped after ${max} tool rounds (the iteration limit). Send "continue" to go on.`;
  return finishWith("iteration_limit", errorInfo("E_ITERATION_LIMIT", `Reached ${max} tool rounds.`));
}

/** A model call that failed ends the run, unless it was a context overflow seen for the first time. */
export function failedTurn(error: LatheErrorInfo, run: RunProgress): RunVerdict {
  if (error.code === "E_CANCELLED") return finishWith("cancelled");
  return overflowRetry(error, run) ?? finishWith("failed", error);
}

/** A provider that says the prompt is too long gets one retry after a forced compaction (SPEC §2). */
function overflowRetry(error: LatheErrorInfo, run: RunProgress): RunVerdict | undefined {
  if (error.code !== "E_CONTEXT_OVERFLOW" || run.overflowRetried) return undefined;
  run.overflowRetried = true;
  run.forceCompaction = true;
  run.iterations--;
  return goOn;
}

/** Stopping with most of the plan open looks premature: the model is asked once to go on. */
export function planLeftOpen(todos: TodoItem[], run: RunProgress): RunVerdict | undefined {
  const nudge = stopGuard({ todos, alreadyNudged: run.stopGuarded });
  if (nudge === undefined) return undefined;
  run.stopGuarded = true;
  return { kind: "continue", reminder: nudge };
}

/** A Stop hook asked for more work (once per run, as in Claude Code): the model hears why. */
export function stopHookAsksMore(reason: string | undefined, run: RunProgress): RunVerdict | undefined {
  if (reason === undefined) return undefined;
  run.stopHookActive = true;
  return { kind: "continue", reminder: `A Stop hook asked you to continue: ${reason}` };
}

/** The loop detector saw the same calls too often: the run ends with its warning as the answer. */
export function loopDetected(stop: LoopWarning | undefined, run: RunProgress): RunEnding | undefined {
  if (!stop) return undefined;
  run.emit({ type: "loop_warning", ...stop });
  run.final = stop.message;
  return finishWith("loop_detected", errorInfo("E_LOOP_DETECTED", stop.message));
}
