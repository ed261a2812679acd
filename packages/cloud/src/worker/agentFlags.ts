import type { StepRecord } from "../tasks/taskRecords.js";

/**
 * The engine's flags for the agent a step runs as: its instructions with every request, read-only
 * (ask mode) when it only looks, and only its tools when it lists them. Each value is joined to its
 * flag, so none can be read as a flag of its own.
 */
export function agentFlags(step: StepRecord): string[] {
  if (step.agent === null) return [];
  return [
    ...(step.agent.instructions.trim() === "" ? [] : [`--append-system-prompt=${step.agent.instructions}`]),
    ...(step.agent.readonly ? ["--mode=ask"] : []),
    ...(step.agent.tools === undefined ? [] : [`--tools=${step.agent.tools.join(",")}`]),
  ];
}
