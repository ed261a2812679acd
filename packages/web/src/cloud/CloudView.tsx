import { useCallback, useState } from "react";
import { cloudApi } from "../api/cloudApi.js";
import { PanelStatus, ResourceView } from "../panels/PanelStatus.js";
import { useApiResource } from "../panels/useApiResource.js";
import { CloudTaskList } from "./CloudTaskList.js";
import { SubmitTaskForm } from "./SubmitTaskForm.js";
import { TaskProgress } from "./TaskProgress.js";
import "../panels/panels.css";
import "./cloud.css";

export interface CloudViewProps {
  projectRoot: string;
  /** The task shown, from the page's address. */
  taskId?: string;
  onSelect(taskId: string): void;
  /** An apply changed the project's files (and added a session with its checkpoint). */
  onProjectChanged(): void;
}

/**
 * The Cloud tab: tasks for the fleet of `lathe worker`s that shares the task database — submitted
 * from the served project, followed live, answered, compared and applied here. Without a task
 * database it says so, with its code and how to give it one.
 */
export function CloudView(props: CloudViewProps) {
  const { projectRoot } = props;
  const load = useCallback(() => cloudApi.info(projectRoot), [projectRoot]);
  const { resource, reload } = useApiResource(load);
  // Read the list again now rather than at its next poll: a task was submitted, or changed status.
  const [listRefresh, setListRefresh] = useState(0);
  const refreshList = useCallback(() => setListRefresh((count) => count + 1), []);
  if (resource.status === "failed")
    return (
      <div className="lp-panel lc-cloud lc-unavailable" data-testid="cloud-view">
        <div data-testid="cloud-unavailable">
          <PanelStatus kind="error">{resource.error}</PanelStatus>
        </div>
        <div className="lp-toolbar">
          <button type="button" className="lp-button" data-testid="cloud-retry" onClick={reload}>
            Try again
          </button>
        </div>
      </div>
    );
  return (
    <div className="lp-panel lc-cloud" data-testid="cloud-view">
      <ResourceView resource={resource} loadingText="Connecting to the task database…">
        {(info) => (
          <>
            <aside className="lc-side">
              <SubmitTaskForm
                projectRoot={projectRoot}
                pipelines={info.pipelines}
                onSubmitted={(taskId) => {
                  refreshList();
                  props.onSelect(taskId);
                }}
              />
              <CloudTaskList selectedId={props.taskId} refreshKey={listRefresh} onSelect={props.onSelect} />
              <p className="lp-hint" data-testid="cloud-device">
                This device: <span className="lp-mono">{info.deviceId}</span>
                <br />
                Database: <span className="lp-mono">{info.database}</span>
              </p>
            </aside>
            <section className="lc-main">
              {props.taskId ? (
                <TaskProgress
                  key={props.taskId}
                  taskId={props.taskId}
                  projectRoot={projectRoot}
                  deviceId={info.deviceId}
                  onApplied={props.onProjectChanged}
                  onStatus={refreshList}
                />
              ) : (
                <PanelStatus kind="empty">Submit a task, or choose one from the list.</PanelStatus>
              )}
            </section>
          </>
        )}
      </ResourceView>
    </div>
  );
}
