import { approvalModeSchema, parseModelId } from "@lathe/core";
import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import type { TaskRecord } from "../tasks/taskRecords.js";

/**
 * What a worker checks of a task before it runs anything: the row came from the database, and
 * whoever can write there must not choose the worker's policy. The approval mode may go as far as
 * `auto` (critical calls still ask) and never to `yolo`; the model is a model id, nothing a
 * command line would read as a flag.
 */
export function refusedSettings(
  task: Pick<TaskRecord, "approvalMode" | "model">,
): LatheErrorInfo | undefined {
  const mode = approvalModeSchema.safeParse(task.approvalMode);
  if (!mode.success || mode.data === "yolo") {
    return errorInfo(
      "E_SECURITY_BLOCKED",
      `A worker runs tasks in approval mode manual, ask_first, auto_edit or auto, not ${JSON.stringify(task.approvalMode)}.`,
    );
  }
  if (task.model !== null) {
    const model = parseModelId(task.model);
    if (!model.ok) return model.error;
  }
  return undefined;
}
