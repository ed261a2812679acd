import { summarizeToolCall } from "@lathe/protocol";
import { memo, useState } from "react";
import { formatDuration } from "../displayFormat.js";
import type { SubagentItem, SubagentStep } from "../state/sessionView.js";

/**
 * A sub-agent started by `task`: what it is doing while it runs, what it cost when done, and, on
 * a click, its own steps (each tool call and what it gave, each answer).
 */
export const SubAgentCard = memo(function SubAgentCard({ item }: { item: SubagentItem }) {
  const running = item.status === "running";
  const [open, setOpen] = useState(false);
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
        {item.steps.length > 0 && (
          <button
            type="button"
            className="subagent-toggle"
            data-testid="subagent-steps-toggle"
            aria-expanded={open}
            onClick={() => setOpen(!open)}
          >
            {open ? "Hide steps" : `Show ${item.steps.length} ${item.steps.length === 1 ? "step" : "steps"}`}
          </button>
        )}
      </div>
      {open && (
        <ol className="subagent-steps">
          {item.steps.map((step, index) => (
            // Steps only ever arrive at the end: their order is their identity.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <SubagentStepLine key={index} step={step} />
          ))}
        </ol>
      )}
    </div>
  );
});

function SubagentStepLine({ step }: { step: SubagentStep }) {
  if (step.kind === "text") {
    return (
      <li className="subagent-step subagent-text" data-testid="subagent-step" data-kind="text">
        {step.text}
      </li>
    );
  }
  return (
    <li className={`subagent-step step-${step.state}`} data-testid="subagent-step" data-kind="tool">
      <details>
        <summary>
          <span className="subagent-step-summary">{summarizeToolCall(step.name, step.arguments)}</span>
          <span className="subagent-step-state">{step.state === "completed" ? "Done" : step.state}</span>
        </summary>
        <pre className="subagent-step-output">{step.output}</pre>
      </details>
    </li>
  );
}
