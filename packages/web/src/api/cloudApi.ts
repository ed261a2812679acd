import type {
  CloudApplyReply,
  CloudApprovalMode,
  CloudBudget,
  CloudInfo,
  CloudStep,
  CloudSubmitReply,
  CloudTask,
  CloudTaskDetail,
  CloudTaskSummary,
} from "@lathe/protocol";
import { call, query } from "./httpApi.js";

/** A task as the Cloud tab's form sends it. */
export interface CloudTaskForm {
  projectRoot: string;
  prompt: string;
  pipeline?: string;
  attempts: number;
  verify?: string;
  budget?: CloudBudget;
  approvalMode: CloudApprovalMode;
  forceCloud: boolean;
}

const task = (id: string) => `/api/cloud/tasks/${encodeURIComponent(id)}`;

/** `lathe serve`'s task queue routes (`/api/cloud/…`). */
export const cloudApi = {
  info: (projectRoot: string) => call<CloudInfo>("GET", `/api/cloud${query({ projectRoot })}`),
  tasks: () => call<CloudTaskSummary[]>("GET", "/api/cloud/tasks"),
  submit: (form: CloudTaskForm) => call<CloudSubmitReply>("POST", "/api/cloud/tasks", form),
  task: (id: string) => call<CloudTaskDetail>("GET", task(id)),
  answer: (id: string, answer: { allow: boolean; message?: string; stepIndex?: number }) =>
    call<CloudStep>("POST", `${task(id)}/answer`, answer),
  cancel: (id: string) => call<CloudTask>("POST", `${task(id)}/cancel`, {}),
  apply: (id: string, projectRoot: string, attempt?: number) =>
    call<CloudApplyReply>(
      "POST",
      `${task(id)}/apply`,
      attempt === undefined ? { projectRoot } : { projectRoot, attempt },
    ),
  /** The address of the task's Server-Sent Events (stored ones after `after`, then live). */
  eventsUrl: (id: string, after: number) => `${task(id)}/events${query({ after: String(after) })}`,
};
