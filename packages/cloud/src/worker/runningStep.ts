/** A step this worker holds, for its cancel and answer notifications and its heartbeat. */
export interface RunningStep {
  taskId: string;
  stepIndex: number;
  lease: string;
  controller: AbortController;
  /** Set while the worker shuts down past its grace: the step goes back to the queue. */
  releasing: boolean;
  /** Wakes a step waiting for an answer. */
  answered?: () => void;
}

export function stepKey(taskId: string, stepIndex: number): string {
  return `${taskId}:${stepIndex}`;
}
