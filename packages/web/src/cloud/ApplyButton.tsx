import type { CloudApplyReply } from "@lathe/protocol";
import { cloudApi } from "../api/cloudApi.js";
import { PanelStatus } from "../panels/PanelStatus.js";
import { useApiAction } from "../panels/useApiAction.js";

/** Applies the task's result, or one attempt's, to the served project (after a checkpoint). */
export function ApplyButton(props: {
  taskId: string;
  projectRoot: string;
  attempt?: number;
  label: string;
  testId: string;
  disabled?: boolean;
  onApplied(reply: CloudApplyReply): void;
}) {
  const apply = useApiAction();
  const run = async () => {
    const result = await apply.run(() => cloudApi.apply(props.taskId, props.projectRoot, props.attempt));
    if (result.ok) props.onApplied(result.value);
  };
  return (
    <span className="lc-apply">
      <button
        type="button"
        className="lp-button lp-primary"
        data-testid={props.testId}
        disabled={props.disabled || apply.pending}
        onClick={() => void run()}
      >
        {apply.pending ? "Applying…" : props.label}
      </button>
      {apply.error ? (
        <span data-testid="apply-error">
          <PanelStatus kind="error">{apply.error}</PanelStatus>
        </span>
      ) : null}
    </span>
  );
}
