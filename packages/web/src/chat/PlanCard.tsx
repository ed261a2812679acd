import { memo } from "react";
import type { PlanItem } from "../state/sessionView.js";

/** The plan plan mode saved, with the way to carry it out: agent mode, the plan as the message. */
export const PlanCard = memo(function PlanCard({
  item,
  onRun,
}: {
  item: PlanItem;
  /** Absent while a run is in progress: the plan runs once the session is idle. */
  onRun?: (item: PlanItem) => void;
}) {
  return (
    <div className="plan-card" data-testid="plan-card" data-path={item.path}>
      <div className="plan-title">{item.title}</div>
      <div className="plan-path">
        Plan saved to <code>{item.path}</code>; edit it there, or run it as it is.
      </div>
      <button
        type="button"
        className="plan-run"
        data-testid="run-plan"
        disabled={onRun === undefined}
        title="Switch to agent mode and carry out this plan"
        onClick={() => onRun?.(item)}
      >
        Run this plan
      </button>
    </div>
  );
});
