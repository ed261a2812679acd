import type { CloudStepStatus } from "@lathe/protocol";

/** The badge colour of a task's or step's status, as the side panels colour session states. */
export function statusTone(status: CloudStepStatus): "idle" | "busy" | "attention" | "error" | "ok" {
  switch (status) {
    case "running":
      return "busy";
    case "needs_input":
      return "attention";
    case "failed":
      return "error";
    case "completed":
      return "ok";
    default:
      return "idle";
  }
}

/** `needs_input` → `needs input`. */
export function statusText(status: CloudStepStatus): string {
  return status.replaceAll("_", " ");
}
