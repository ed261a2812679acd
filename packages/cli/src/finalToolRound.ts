import type { AgentSession } from "@lathe/core";
import type { LatheEvent } from "@lathe/protocol";

/** How the calls of one round of tool calls ended. */
export interface ToolRoundOutcome {
  /** Calls the policy, a hook or a rule denied, or that were rejected (no one to approve them headless). */
  denied: number;
  /** Calls that ran to completion. */
  completed: number;
}

/**
 * Follows a session's events and keeps how the calls of each run's latest round of tool calls
 * ended, so the exit code can tell "denied with no way forward" from a run that got past a denial.
 */
export function followToolRounds(session: AgentSession) {
  const current = new Map<string, ToolRoundOutcome>();
  const last = new Map<string, ToolRoundOutcome>();
  const unsubscribe = session.subscribe((event: LatheEvent) => {
    switch (event.type) {
      case "turn_start":
        current.set(event.runId, { denied: 0, completed: 0 });
        break;
      case "tool_blocked":
      case "tool_rejected":
        outcomeOf(current, event.runId).denied++;
        break;
      case "tool_completed":
        outcomeOf(current, event.runId).completed++;
        break;
      case "turn_end":
        if (event.toolCalls > 0) last.set(event.runId, outcomeOf(current, event.runId));
        break;
    }
  });
  return {
    /** The last round of the run that had tool calls; undefined when it called no tool. */
    finalRound(runId: string): ToolRoundOutcome | undefined {
      unsubscribe();
      return last.get(runId);
    },
  };
}

function outcomeOf(rounds: Map<string, ToolRoundOutcome>, runId: string): ToolRoundOutcome {
  let outcome = rounds.get(runId);
  if (outcome === undefined) {
    outcome = { denied: 0, completed: 0 };
    rounds.set(runId, outcome);
  }
  return outcome;
}
