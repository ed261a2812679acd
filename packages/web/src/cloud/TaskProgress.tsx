import type { CloudApplyReply, CloudTaskStatus } from "@lathe/protocol";
import { useEffect, useState } from "react";
import { PanelStatus } from "../panels/PanelStatus.js";
import { ApplyButton } from "./ApplyButton.js";
import { ApplyResult } from "./ApplyResult.js";
import { AttemptComparison } from "./AttemptComparison.js";
import { PatchView } from "./PatchView.js";
import { StepGraph } from "./StepGraph.js";
import { StepQuestions } from "./StepQuestions.js";
import { TaskHeader } from "./TaskHeader.js";
import { TaskLog } from "./TaskLog.js";
import { UsageMeter } from "./UsageMeter.js";
import { useCloudTask } from "./useCloudTask.js";

export interface TaskProgressProps {
  taskId: string;
  projectRoot: string;
  /** This machine's device id: a step that runs here asks here. */
  deviceId: string;
  onApplied(): void;
  /** The task's status changed here (the list shows it a poll later otherwise). */
  onStatus(status: CloudTaskStatus): void;
}

/**
 * The seed's TaskProgress: one task live — its step graph, what it waits for (answered here), its
 * usage against its budget, best-of-N's attempts side by side, its result with Apply, and its log
 * as it streams.
 */
export function TaskProgress(props: TaskProgressProps) {
  const { detail, events, feed, failure, reload } = useCloudTask(props.taskId);
  const [applied, setApplied] = useState<CloudApplyReply>();
  const status = detail?.task.status;
  const { onStatus } = props;
  useEffect(() => {
    if (status !== undefined) onStatus(status);
  }, [status, onStatus]);
  const onApplied = (reply: CloudApplyReply) => {
    setApplied(reply);
    props.onApplied();
  };
  if (detail === undefined)
    return failure ? (
      <PanelStatus kind="error">{failure}</PanelStatus>
    ) : (
      <PanelStatus kind="loading">Loading the task…</PanelStatus>
    );
  const { task, steps } = detail;
  const hasAttempts = steps.some((step) => step.attemptNo !== null);
  return (
    <div className="lc-progress" data-testid="task-progress" data-task={task.id} data-status={task.status}>
      <TaskHeader task={task} feed={feed} onChanged={reload} />
      {failure ? <PanelStatus kind="error">{failure}</PanelStatus> : null}
      <UsageMeter task={task} />
      <StepGraph steps={steps} deviceId={props.deviceId} />
      <StepQuestions taskId={task.id} steps={steps} deviceId={props.deviceId} onAnswered={reload} />
      {hasAttempts ? (
        <AttemptComparison task={task} steps={steps} projectRoot={props.projectRoot} onApplied={onApplied} />
      ) : null}
      {task.status === "completed" ? (
        <section className="lc-result" data-testid="task-result" aria-label="Result">
          <h3 className="lp-heading">Result</h3>
          <PatchView patch={task.patch ?? ""} testId="task-patch" />
          <div className="lp-toolbar">
            <ApplyButton
              taskId={task.id}
              projectRoot={props.projectRoot}
              label="Apply to the project"
              testId="task-apply"
              onApplied={onApplied}
            />
          </div>
        </section>
      ) : null}
      {applied ? <ApplyResult reply={applied} projectRoot={props.projectRoot} /> : null}
      <h3 className="lp-heading">Log</h3>
      <TaskLog events={events} />
    </div>
  );
}
