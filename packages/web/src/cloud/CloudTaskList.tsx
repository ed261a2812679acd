import type { CloudTaskSummary } from "@lathe/protocol";
import { useEffect, useState } from "react";
import { cloudApi } from "../api/cloudApi.js";
import { absoluteTime, relativeTime } from "../displayFormat.js";
import { ResourceView } from "../panels/PanelStatus.js";
import { useApiResource } from "../panels/useApiResource.js";
import { StatusBadge } from "./StatusBadge.js";

/** Tasks change on other devices too; the list is read again this often while it is shown. */
const pollMs = 2_000;

export interface CloudTaskListProps {
  selectedId?: string;
  /** Changed by the page after it submitted a task, to show it at once. */
  refreshKey: number;
  onSelect(taskId: string): void;
}

/** The seed's CloudTaskList: every task of the database, newest first. */
export function CloudTaskList(props: CloudTaskListProps) {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((count) => count + 1), pollMs);
    return () => clearInterval(timer);
  }, []);
  // Both only grow, so their sum changes whenever either does.
  const { resource } = useApiResource(cloudApi.tasks, props.refreshKey + tick);
  const now = Date.now();
  return (
    <nav className="lc-task-list" aria-label="Cloud tasks" data-testid="cloud-task-list">
      <h3 className="lp-heading">Tasks</h3>
      <ResourceView resource={resource} emptyText="No tasks yet" isEmpty={(tasks) => tasks.length === 0}>
        {(tasks) => (
          <ul className="lp-list">
            {tasks.map((task) => (
              <TaskRow
                key={task.id}
                task={task}
                now={now}
                selected={task.id === props.selectedId}
                onSelect={props.onSelect}
              />
            ))}
          </ul>
        )}
      </ResourceView>
    </nav>
  );
}

function TaskRow(props: {
  task: CloudTaskSummary;
  now: number;
  selected: boolean;
  onSelect(taskId: string): void;
}) {
  const { task } = props;
  return (
    <li>
      <button
        type="button"
        className="lp-row"
        data-testid="cloud-task-row"
        data-id={task.id}
        data-status={task.status}
        aria-current={props.selected ? "true" : undefined}
        title={`${task.id}\n${task.routeReason}`}
        onClick={() => props.onSelect(task.id)}
      >
        <span className="lp-row-title" data-testid="cloud-task-title">
          {task.title}
        </span>
        <span className="lp-row-meta">
          <StatusBadge status={task.status} testId="cloud-task-status" />
          <span data-testid="cloud-task-route">{task.route}</span>
          <span title={absoluteTime(task.createdAt)}>{relativeTime(task.createdAt, props.now)}</span>
          {task.attempts > 1 ? <span data-testid="cloud-task-attempts">{task.attempts} attempts</span> : null}
          {task.pipeline ? <span>{task.pipeline}</span> : null}
        </span>
      </button>
    </li>
  );
}
