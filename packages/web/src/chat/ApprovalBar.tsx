import type { PendingApproval } from "@lathe/protocol";
import { summarizeToolCall } from "@lathe/protocol";
import { approvalModeExplanations, approvalModeNames } from "../approvalModes.js";

/** Shown while approvals wait: answer them all at once, or change the policy for what follows. */
export function ApprovalBar({
  approvals,
  approvalMode,
  onAcceptAll,
  onRejectAll,
  onApprovalMode,
}: {
  approvals: PendingApproval[];
  approvalMode: string;
  onAcceptAll(): void;
  onRejectAll(): void;
  onApprovalMode(mode: string): void;
}) {
  if (approvals.length === 0) return null;
  return (
    <div className="approval-bar" data-testid="approval-bar">
      <span className="approval-count">
        {approvals.length === 1
          ? `Waiting for approval: ${summarizeToolCall(approvals[0]!.name, approvals[0]!.arguments)}`
          : `${approvals.length} actions wait for approval`}
      </span>
      <button type="button" className="primary" data-testid="accept-all" onClick={onAcceptAll}>
        Accept{approvals.length > 1 ? " all" : ""}
      </button>
      <button type="button" data-testid="reject-all" onClick={onRejectAll}>
        Reject{approvals.length > 1 ? " all" : ""}
      </button>
      <select
        aria-label="Approval policy"
        value={approvalMode}
        onChange={(event) => onApprovalMode(event.target.value)}
      >
        {approvalModeNames.map((mode) => (
          <option key={mode} value={mode} title={approvalModeExplanations[mode]}>
            {mode}
          </option>
        ))}
      </select>
    </div>
  );
}
