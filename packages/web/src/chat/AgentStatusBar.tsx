import type { Connection } from "../state/sessionStore.js";
import type { StatusLine } from "../state/sessionView.js";

const stateLabels: Record<string, string> = {
  idle: "Ready",
  streaming: "Thinking",
  tool_pending: "Preparing tools",
  awaiting_approval: "Waiting for you",
  tool_executing: "Running tools",
  tool_results: "Reading results",
  completed: "Done",
  failed: "Failed",
  cancelled: "Stopped",
  iteration_limit: "Iteration limit",
};

/** State, round N/max, tokens and cost of the session, and whether the event stream is live. */
export function AgentStatusBar({
  status,
  connection,
  failure,
  waitingForUser,
}: {
  status: StatusLine;
  connection: Connection;
  failure?: string | undefined;
  /** An approval or a question is open: whatever the engine's state, the run waits on the user. */
  waitingForUser: boolean;
}) {
  const tokens = status.usage.inputTokens + status.usage.outputTokens;
  return (
    <div className="status-bar" data-testid="status-bar" data-state={status.state}>
      <span
        className={`status-state state-${waitingForUser ? "awaiting_approval" : status.state}`}
        data-testid="run-state"
      >
        {waitingForUser ? "Waiting for you" : (stateLabels[status.state] ?? status.state)}
      </span>
      {status.maxIterations > 0 && status.state !== "idle" && (
        <span data-testid="iteration">
          Round {status.iteration}/{status.maxIterations}
        </span>
      )}
      <span data-testid="tokens">{tokens.toLocaleString("en")} tokens</span>
      <span data-testid="cost">${status.usage.costUsd.toFixed(4)}</span>
      {status.model && <span className="status-model">{status.model}</span>}
      <span className={`connection connection-${connection}`} data-testid="connection">
        {connection === "live" ? "● live" : connection}
      </span>
      {failure && <span className="status-failure">{failure}</span>}
    </div>
  );
}
