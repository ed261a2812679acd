/** The channel a task's events are announced on (pg_notify; see the migration's trigger). */
export function taskChannel(taskId: string): string {
  return `lathe_task_${taskId.replaceAll("-", "")}`;
}

/** Cancels and answers: what workers act on. */
export const controlChannel = "lathe_cloud_control";

/** What a notification carries: enough to know whether to read, never the event itself. */
export interface EventAnnouncement {
  task: string;
  seq: number;
  kind: string;
  step: number | null;
}

export function parseAnnouncement(payload: string | undefined): EventAnnouncement | undefined {
  if (payload === undefined) return undefined;
  try {
    const value = JSON.parse(payload) as Partial<EventAnnouncement>;
    if (typeof value.task !== "string" || typeof value.seq !== "number" || typeof value.kind !== "string")
      return undefined;
    return {
      task: value.task,
      seq: value.seq,
      kind: value.kind,
      step: typeof value.step === "number" ? value.step : null,
    };
  } catch {
    return undefined;
  }
}
