import { type EventOf, summarizeToolCall } from "@lathe/protocol";

/** How a call ended, as its mark shows it. */
export type CallOutcome = "done" | "failed" | "rejected";

/** A sub-agent a `task` call started, as the lines nested under the call show it. */
export interface SubagentRun {
  id: string;
  agent: string;
  description: string;
  /** The model round it is in, or took in all once finished. */
  round: number;
  /** The tool it is running now. */
  running?: string;
  /** Its tool calls that ended, oldest first. */
  steps: { summary: string; outcome: CallOutcome }[];
  /** How it ended (`completed`, `failed`, `timeout`…); absent while it runs. */
  status?: string;
  seconds?: number;
}

type SubagentEvent = EventOf<"subagent_start" | "subagent_progress" | "subagent_step" | "subagent_finish">;

/** The sub-agents of the calls running, after one of their events; calls are matched by the `task` call that started each. */
export function withSubagentEvent<Call extends { callId: string; subagents: SubagentRun[] }>(
  calls: readonly Call[],
  event: SubagentEvent,
): Call[] {
  if (event.type === "subagent_start")
    return calls.map((call) =>
      call.callId === event.callId
        ? {
            ...call,
            subagents: [
              ...call.subagents,
              {
                id: event.subagentId,
                agent: event.agent,
                description: event.description,
                round: 0,
                steps: [],
              },
            ],
          }
        : call,
    );
  return calls.map((call) =>
    call.subagents.some((run) => run.id === event.subagentId)
      ? {
          ...call,
          subagents: call.subagents.map((run) => (run.id === event.subagentId ? advanced(run, event) : run)),
        }
      : call,
  );
}

const stepOutcomes = { completed: "done", failed: "failed", rejected: "rejected" } as const;

function advanced(run: SubagentRun, event: Exclude<SubagentEvent, { type: "subagent_start" }>): SubagentRun {
  switch (event.type) {
    case "subagent_progress":
      if (event.kind === "iteration") return { ...run, round: event.iteration };
      return event.toolState === "executing" || event.toolState === "awaiting_approval"
        ? { ...run, running: event.tool }
        : { ...run, running: undefined };
    case "subagent_step":
      if (event.step.kind !== "tool") return run;
      return {
        ...run,
        steps: [
          ...run.steps,
          {
            summary: summarizeToolCall(event.step.name, event.step.arguments),
            outcome: stepOutcomes[event.step.state],
          },
        ],
      };
    case "subagent_finish":
      return {
        ...run,
        running: undefined,
        round: event.iterations,
        status: event.status,
        seconds: event.durationMs / 1000,
      };
  }
}
