import type { RunState } from "@lathe/protocol";

const endStates: readonly RunState[] = ["completed", "failed", "cancelled", "iteration_limit"];

/** Which state may follow which (SPEC §3). Every end state leads back to idle. */
const allowed: Record<RunState, readonly RunState[]> = {
  idle: ["streaming"],
  streaming: ["tool_pending", ...endStates],
  tool_pending: ["awaiting_approval", "tool_executing", "tool_results", ...endStates],
  awaiting_approval: ["tool_executing", "tool_results", ...endStates],
  tool_executing: ["awaiting_approval", "tool_results", ...endStates],
  tool_results: ["streaming", ...endStates],
  completed: ["idle"],
  failed: ["idle"],
  cancelled: ["idle"],
  iteration_limit: ["idle"],
};

export function canTransition(from: RunState, to: RunState): boolean {
  return allowed[from].includes(to);
}
