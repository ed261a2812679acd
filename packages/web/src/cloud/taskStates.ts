import type { CloudTaskStatus } from "@lathe/protocol";

const finished: ReadonlySet<CloudTaskStatus> = new Set(["completed", "failed", "cancelled"]);

/** Completed, failed or cancelled: nothing more runs unless it is retried. */
export function isFinished(status: CloudTaskStatus): boolean {
  return finished.has(status);
}
