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
      {status.context?.used !== undefined && <ContextGauge {...status.context} used={status.context.used} />}
      <span data-testid="cost">${status.usage.costUsd.toFixed(4)}</span>
      {status.model && <span className="status-model">{status.model}</span>}
      <span className={`connection connection-${connection}`} data-testid="connection">
        {connection === "live" ? "● live" : connection}
      </span>
      {failure && <span className="status-failure">{failure}</span>}
    </div>
  );
}

const thousands = (tokens: number) =>
  tokens >= 1000 ? `${(tokens / 1000).toFixed(tokens >= 10_000 ? 0 : 1)}k` : String(tokens);

/** How full the context is, and how far from the size at which the history gets compacted. */
function ContextGauge({ window, compactAt, used }: { window: number; compactAt: number; used: number }) {
  const share = Math.min(1, used / window);
  const near = used >= compactAt * 0.9;
  return (
    <span
      className={`context-gauge${near ? " context-near" : ""}`}
      data-testid="context-gauge"
      data-used={used}
      title={`${used.toLocaleString("en")} of ${window.toLocaleString("en")} tokens in the context; the history is compacted past ${compactAt.toLocaleString("en")}.`}
    >
      <span className="context-bar" aria-hidden="true">
        <span className="context-fill" style={{ width: `${Math.round(share * 100)}%` }} />
        <span className="context-mark" style={{ left: `${Math.round((compactAt / window) * 100)}%` }} />
      </span>
      Context {thousands(used)} / {thousands(window)} · compacts at {thousands(compactAt)}
    </span>
  );
}
