import { errorInfo, type LatheErrorInfo, type RunEndReason, type RunState } from "@lathe/protocol";
import { type SessionTodoList, todoProgress } from "../planning/todoList.js";
import { durationOf, type RunProgress, type RunResult } from "./runProgress.js";

/**
 * Ends a run: open todos are cancelled (on cancel) or mentioned (on success, unless they are the
 * plan a plan-mode run wrote), the state passes through the ending to idle, and `run_complete`
 * carries the totals.
 */
export function completeRun(
  run: RunProgress,
  ending: { status: RunEndReason; error?: LatheErrorInfo },
  session: { todos: SessionTodoList; setState(to: RunState): void; planMode?: boolean },
): RunResult {
  const { status, error } = ending;
  const { todos } = session;
  if (status === "cancelled" && todos.cancelAll()) {
    const current = todos.current();
    run.emit({ type: "todos", todos: current, ...todoProgress(current) });
  }
  const open = todos.openItems().length;
  if (status === "completed" && open > 0 && !session.planMode) {
    run.emit({
      type: "notice",
      level: "info",
      message: `The run ended with ${open} todo${open === 1 ? "" : "s"} still open.`,
    });
  }
  session.setState(status === "loop_detected" ? "failed" : status);
  run.emit({
    type: "run_complete",
    reason: status,
    iterations: run.iterations,
    final: run.final,
    usage: run.usage,
    durationMs: durationOf(run),
    error,
  });
  session.setState("idle");
  return resultOf(run, status, error);
}

/** A UserPromptSubmit hook blocked the message: it never reaches the model, and the run ends where it began, in idle. */
export function blockedByHook(run: RunProgress, reason: string): RunResult {
  const error = errorInfo("E_SECURITY_BLOCKED", `A UserPromptSubmit hook blocked this message: ${reason}`);
  return endedBeforeModel(run, error);
}

/** The message never reaches the model (a blocked message, a prompt command that failed): the run ends in idle with the error. */
export function endedBeforeModel(run: RunProgress, error: LatheErrorInfo): RunResult {
  run.emit({
    type: "run_complete",
    reason: "failed",
    iterations: run.iterations,
    final: run.final,
    usage: run.usage,
    durationMs: durationOf(run),
    error,
  });
  return resultOf(run, "failed", error);
}

function resultOf(run: RunProgress, status: RunEndReason, error: LatheErrorInfo | undefined): RunResult {
  const { runId, iterations, final, usage, refused } = run;
  return { runId, status, iterations, final, usage, error, ...(refused ? { refused } : {}) };
}
