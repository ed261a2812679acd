import { memo } from "react";
import { formatDuration } from "../displayFormat.js";
import type { SubagentItem } from "../state/sessionView.js";

/** A sub-agent started by `task`: what it is doing while it runs, what it cost when done. */
export const SubAgentCard = memo(function SubAgentCard({ item }: { item: SubagentItem }) {
  const running = item.status === "running";
  return (
    <div
      className={`subagent-card ${running ? "running" : "done"}`}
      data-testid="subagent-card"
      data-status={item.status}
    >
      <div className="subagent-title">
        <span className="subagent-agent">{item.agent}</span> {item.description}
      </div>
      <div className="subagent-meta">
        {running ? `Round ${item.iterations}${item.lastTool ? ` · ${item.lastTool}` : ""}` : item.status}
        {item.usage && ` · ${(item.usage.inputTokens + item.usage.outputTokens).toLocaleString("en")} tokens`}
        {item.durationMs !== undefined && ` · ${formatDuration(item.durationMs)}`}
      </div>
    </div>
  );
});
