import type {
  CloudApplyReply,
  CloudApprovalMode,
  CloudBudget,
  CloudEvent,
  CloudInfo,
  CloudStep,
  CloudSubmitReply,
  CloudTask,
  CloudTaskDetail,
  CloudTaskStatus,
  CloudTaskSummary,
} from "@lathe/protocol";
import type { ServiceResult } from "./serviceResult.js";

/** A task as the web form asks for it, checked; it runs on the project the request named. */
export interface CloudTaskRequest {
  prompt: string;
  /** A pipeline by name; absent with one attempt and no verify: a plain task. */
  pipeline?: string;
  attempts: number;
  /** The project's own check for each coding step (tests, build, lint). */
  verify?: string;
  budget?: CloudBudget;
  approvalMode: CloudApprovalMode;
  /** Sent to the fleet even when the router would keep it on this machine. */
  forceCloud: boolean;
}

export interface CloudAnswer {
  allow: boolean;
  /** Given to the model with a refusal. */
  message?: string;
  /** The step asked; absent: the first one waiting. */
  stepIndex?: number;
}

/** Where a task's live feed is delivered. */
export interface CloudFeedHandlers {
  onEvent(event: CloudEvent): void;
  /** The database connection dropped, or is back (the feed catches up by itself). */
  onConnection(state: "lost" | "back"): void;
}

/**
 * The task queue (SPEC §9) as the face reaches it: the server and the cloud package are siblings,
 * so the CLI implements this over `@lathe/cloud` and `lathe serve` hands it in. Every project root
 * given is real and served; a task id may be a unique prefix. A database that is not configured
 * or does not answer is an `unavailable` failure whose message says how to fix it.
 */
export interface CloudServices {
  info(projectRoot: string): Promise<ServiceResult<CloudInfo>>;
  /** Newest first. */
  tasks(filter: { status?: CloudTaskStatus; limit: number }): Promise<ServiceResult<CloudTaskSummary[]>>;
  /** Routes, bundles the project's last commit and queues the task; nothing is stored when refused. */
  submit(projectRoot: string, request: CloudTaskRequest): Promise<ServiceResult<CloudSubmitReply>>;
  task(taskId: string): Promise<ServiceResult<CloudTaskDetail>>;
  /**
   * The task's events after `afterSeq`, each once and in order, stored ones first and then live,
   * until `signal` aborts; settles then.
   */
  follow(
    taskId: string,
    afterSeq: number,
    handlers: CloudFeedHandlers,
    signal: AbortSignal,
  ): Promise<ServiceResult<void>>;
  /** Answers an approval or, for a step that runs on this device, its consent. */
  answer(taskId: string, answer: CloudAnswer): Promise<ServiceResult<CloudStep>>;
  cancel(taskId: string): Promise<ServiceResult<CloudTask>>;
  /** The task's patch (or attempt `attempt`'s) applied to the project, after a checkpoint. */
  apply(taskId: string, projectRoot: string, attempt?: number): Promise<ServiceResult<CloudApplyReply>>;
}
