import { summarizeToolCall } from "@lathe/protocol";
import { memo, useState } from "react";
import type { ApprovalScope } from "../api/httpApi.js";
import { formatDuration } from "../displayFormat.js";
import { AnsiOutput, DiffView, MarkdownView } from "../render/index.js";
import type { CardState, ToolItem } from "../state/sessionView.js";
import { reportedDiffFiles, toolDiffFiles } from "./toolDiff.js";

const stateLabels: Record<CardState, string> = {
  streaming: "Preparing",
  pending_approval: "Needs approval",
  executing: "Running",
  completed: "Done",
  failed: "Failed",
  rejected: "Rejected",
  skipped: "Skipped",
};

const terminalTools = new Set(["run_terminal_cmd", "terminal_output"]);

export interface ToolCallCardProps {
  item: ToolItem;
  /** Calls the run has made so far: the M of "Step N/M". */
  steps: number;
  onApprove(approvalId: string, always?: ApprovalScope): void;
  onReject(approvalId: string): void;
  onRetry(item: ToolItem): void;
}

/** A command that ran and exited non-zero: the call succeeded, the command failed. */
function exitedNonZero(item: ToolItem): boolean {
  return item.state === "completed" && item.exitCode !== undefined && item.exitCode !== 0;
}

function argumentsText(item: ToolItem): string {
  if (item.arguments === undefined) return item.rawArguments;
  return JSON.stringify(item.arguments, null, 2);
}

function CardBody({ item }: { item: ToolItem }) {
  // Once the edit ran, its own diff of the file; before, what the arguments say will change.
  const reported = item.state === "completed" ? reportedDiffFiles(item.name, item.output) : [];
  const diff = reported.length > 0 ? reported : toolDiffFiles(item.name, item.arguments);
  const command = terminalTools.has(item.name)
    ? (item.arguments as { command?: string } | undefined)?.command
    : undefined;
  return (
    <div className="tool-body">
      {diff.length > 0 ? (
        <DiffView files={diff} />
      ) : command !== undefined ? (
        <pre className="tool-command">$ {command}</pre>
      ) : (
        <pre className="tool-args">{argumentsText(item)}</pre>
      )}
      {item.output !== "" &&
        (terminalTools.has(item.name) ? (
          <AnsiOutput text={item.output} />
        ) : diff.length > 0 ? null : item.name === "task" ? (
          <MarkdownView text={item.output} />
        ) : (
          <pre className="tool-output" data-testid="tool-output">
            {item.output.length > 20_000 ? `${item.output.slice(0, 20_000)}\n…` : item.output}
          </pre>
        ))}
    </div>
  );
}

/** Why a call failed or was refused: shown on the card even when it is collapsed. */
function Outcome({ item }: { item: ToolItem }) {
  if (item.error) {
    return (
      <div className="tool-error" data-testid="tool-error">
        {item.error.code}: {item.error.message}
      </div>
    );
  }
  if (item.rejection) return <div className="tool-rejection">{item.rejection}</div>;
  return null;
}

/** A tool call: collapsed to one line by default, open while it waits for approval. */
export const ToolCallCard = memo(function ToolCallCard({
  item,
  steps,
  onApprove,
  onReject,
  onRetry,
}: ToolCallCardProps) {
  const [open, setOpen] = useState<boolean | undefined>(undefined);
  const expanded = open ?? item.state === "pending_approval";
  const [scope, setScope] = useState<"" | ApprovalScope>("");
  const commandFailed = exitedNonZero(item);
  return (
    <div
      className={`tool-card state-${item.state}${commandFailed ? " command-failed" : ""}`}
      data-testid="tool-card"
      data-state={item.state}
      data-tool={item.name}
      data-exit-code={item.exitCode}
    >
      <button
        type="button"
        className="tool-header"
        onClick={() => setOpen(!expanded)}
        aria-expanded={expanded}
      >
        <span
          className={`tool-dot ${commandFailed ? "dot-command-failed" : `dot-${item.state}`}`}
          aria-hidden="true"
        />
        <span className="tool-summary" data-testid="tool-summary">
          {summarizeToolCall(item.name, item.arguments)}
        </span>
        <span className="tool-meta">
          <span className="tool-state" data-testid="tool-state">
            {commandFailed ? `Exit ${item.exitCode}` : stateLabels[item.state]}
          </span>
          {item.risk && item.state === "pending_approval" && (
            <span className={`risk risk-${item.risk}`}>{item.risk}</span>
          )}
          <span className="tool-step">
            Step {item.step}/{Math.max(steps, item.step)}
          </span>
          {item.durationMs !== undefined && (
            <span className="tool-duration">{formatDuration(item.durationMs)}</span>
          )}
        </span>
      </button>
      {expanded && <CardBody item={item} />}
      <Outcome item={item} />
      {item.state === "pending_approval" && item.approvalId && (
        <div className="tool-approval" data-testid="card-approval">
          {item.reason && <span className="approval-reason">{item.reason}</span>}
          {item.alwaysRules && item.alwaysRules.length > 0 && (
            <select
              aria-label="Remember this decision"
              value={scope}
              onChange={(event) => setScope(event.target.value as "" | ApprovalScope)}
            >
              <option value="">Just this once</option>
              <option value="session">Always, this session</option>
              <option value="project-local">Always, this project</option>
              <option value="user">Always, everywhere</option>
            </select>
          )}
          {scope !== "" && item.alwaysRules && (
            <span className="approval-rule" data-testid="always-rule">
              Saves{" "}
              {item.alwaysRules.map((rule) => (
                <code key={rule}>{rule}</code>
              ))}
            </span>
          )}
          <button
            type="button"
            className="primary"
            data-testid="approve"
            onClick={() => onApprove(item.approvalId!, scope === "" ? undefined : scope)}
          >
            Accept
          </button>
          <button type="button" data-testid="reject" onClick={() => onReject(item.approvalId!)}>
            Reject
          </button>
        </div>
      )}
      {item.state === "failed" && (
        <div className="tool-retry">
          <button type="button" data-testid="retry" onClick={() => onRetry(item)}>
            Retry
          </button>
        </div>
      )}
    </div>
  );
});
