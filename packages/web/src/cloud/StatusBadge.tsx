import type { CloudStepStatus } from "@lathe/protocol";
import { statusText, statusTone } from "./statusTone.js";

export function StatusBadge(props: { status: CloudStepStatus; testId: string }) {
  return (
    <span
      className={`lp-badge lp-badge-${statusTone(props.status)}`}
      data-testid={props.testId}
      data-status={props.status}
    >
      {statusText(props.status)}
    </span>
  );
}
