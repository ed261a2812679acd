import type { CloudTask } from "@lathe/protocol";
import { cloudApi } from "../api/cloudApi.js";
import type { CloudFeedStatus } from "../api/cloudEvents.js";
import { PanelStatus } from "../panels/PanelStatus.js";
import { useApiAction } from "../panels/useApiAction.js";
import { StatusBadge } from "./StatusBadge.js";
import { isFinished } from "./taskStates.js";

const feedText: Record<CloudFeedStatus, string> = {
  connecting: "connecting…",
  live: "live",
  reconnecting: "reconnecting…",
  database_lost: "database lost; reconnecting…",
  closed: "closed",
};

/** The task's title, status, route and live feed, with Cancel while it is not finished. */
export function TaskHeader(props: { task: CloudTask; feed: CloudFeedStatus; onChanged(): void }) {
  const { task } = props;
  const cancel = useApiAction();
  const stop = async () => {
    if ((await cancel.run(() => cloudApi.cancel(task.id))).ok) props.onChanged();
  };
  return (
    <header className="lc-task-head">
      <div className="lc-task-line">
        <h2 className="lc-task-title" data-testid="task-title" title={task.prompt}>
          {task.title}
        </h2>
        <StatusBadge status={task.status} testId="task-status" />
        <span className="lp-badge lp-badge-idle" data-testid="cloud-feed" data-feed={props.feed}>
          {feedText[props.feed]}
        </span>
        {!isFinished(task.status) ? (
          <button
            type="button"
            className="lp-button lp-danger lp-push-right"
            data-testid="cloud-cancel"
            disabled={cancel.pending}
            onClick={() => void stop()}
          >
            {cancel.pending ? "Cancelling…" : "Cancel"}
          </button>
        ) : null}
      </div>
      <div className="lc-task-facts lp-muted">
        <span className="lp-mono" title={task.id}>
          {task.id.slice(0, 8)}
        </span>
        <span title={task.routeReason}>
          {task.route}: {task.routeReason}
        </span>
        {task.pipeline ? <span>pipeline {task.pipeline}</span> : null}
        {task.attempts > 1 ? <span>{task.attempts} attempts</span> : null}
        {task.verify ? (
          <span>
            verify <span className="lp-mono">{task.verify}</span>
          </span>
        ) : null}
        {task.maxSendBacks !== null ? (
          <span data-testid="task-send-backs">
            send-backs {task.sendBacks}/{task.maxSendBacks}
          </span>
        ) : null}
        <span>approvals {task.approvalMode}</span>
        <span>from {task.deviceId}</span>
      </div>
      {task.error ? (
        <div data-testid="task-error">
          <PanelStatus kind="error">
            {task.error.code}: {task.error.message}
          </PanelStatus>
        </div>
      ) : null}
      {cancel.error ? <PanelStatus kind="error">{cancel.error}</PanelStatus> : null}
    </header>
  );
}
