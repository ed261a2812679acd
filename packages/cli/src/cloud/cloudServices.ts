import {
  answerTask,
  cancelTask,
  defaultBundleCapBytes,
  describeUrl,
  findTask,
  followTask,
  listPipelines,
  listTasks,
  readSteps,
  submitTask,
  type TaskRecord,
} from "@lathe/cloud";
import { projectTrusted } from "@lathe/core";
import type { LatheErrorInfo } from "@lathe/protocol";
import {
  type CloudServices,
  type ServiceFailureKind,
  type ServiceResult,
  served,
  serviceError,
} from "@lathe/server";
import { projectTrustFor } from "../trustServices.js";
import { applyTaskPatch } from "./cloudApply.js";
import { ownerFor } from "./cloudConnection.js";
import { patchSummary } from "./cloudOutput.js";
import { eventWire, stepWire, taskSummaryWire, taskWire } from "./cloudWire.js";
import { pipelineForTask } from "./pipelineChoice.js";
import { type CloudConnection, servedCloudConnection } from "./servedCloudConnection.js";
import { prepareTask, taskDefaults } from "./taskPreparation.js";

export interface ServedCloud extends CloudServices {
  /** Ends the pool and the queue (when `lathe serve` stops). */
  close(): Promise<void>;
}

/** What each cloud error code is, for the HTTP status the server answers with. */
const failureKinds: Record<string, ServiceFailureKind> = {
  E_TASK_NOT_FOUND: "not_found",
  E_TASK_STATE: "conflict",
  E_PIPELINE: "invalid",
  E_BUNDLE_TOO_LARGE: "invalid",
  E_REPO_UNAVAILABLE: "invalid",
  E_INVALID_ARGS: "invalid",
  E_CLOUD_URL: "unavailable",
  E_CLOUD_UNREACHABLE: "unavailable",
};

function coded<T>(error: LatheErrorInfo): ServiceResult<T> {
  return serviceError(failureKinds[error.code] ?? "failed", error.code, error.message);
}

/**
 * `lathe serve`'s Cloud tab over `@lathe/cloud`: the same calls `lathe cloud` makes (routing and
 * bundling by `prepareTask`, pipelines by `pipelineForTask`, applying by `applyTaskPatch`), on one
 * pool opened at the first request and kept until the server stops. This machine's device id is
 * the one `lathe cloud` uses, so a step that must run here asks here.
 */
export function cloudServices(inputs: {
  latheHome: string;
  env: Record<string, string | undefined>;
  report(line: string): void;
}): ServedCloud {
  const { latheHome, env } = inputs;
  const connection = servedCloudConnection(inputs);
  const connected = async <T>(
    act: (cloud: CloudConnection) => Promise<ServiceResult<T>>,
  ): Promise<ServiceResult<T>> => {
    const cloud = await connection.get();
    return cloud.ok ? act(cloud.value) : cloud;
  };
  const withTask = <T>(
    taskId: string,
    act: (cloud: CloudConnection, task: TaskRecord) => Promise<ServiceResult<T>>,
  ): Promise<ServiceResult<T>> =>
    connected(async (cloud) => {
      const found = await findTask(cloud.database.pool, taskId);
      return found.ok ? act(cloud, found.value) : coded(found.error);
    });

  return {
    info: (projectRoot) =>
      connected(async (cloud) => {
        const trust = projectTrustFor(latheHome, projectRoot);
        const pipelines = await listPipelines(projectRoot, {
          projectFiles: trust.ok && projectTrusted(trust.value),
        });
        return served({
          deviceId: cloud.deviceId,
          database: describeUrl(cloud.database.url),
          pipelines: pipelines
            .filter((listing) => listing.problem === undefined)
            .map((listing) => listing.name),
        });
      }),
    tasks: (filter) =>
      connected(async (cloud) => served((await listTasks(cloud.database.pool, filter)).map(taskSummaryWire))),
    submit: (projectRoot, request) =>
      connected(async (cloud) => {
        const chosen = await pipelineForTask({
          projectRoot,
          latheHome,
          pipeline: request.pipeline,
          attempts: request.attempts,
          verify: request.verify,
        });
        if (!chosen.ok) return coded(chosen.error);
        const { pipeline } = chosen;
        const notices = [...chosen.notices];
        const prepared = await prepareTask(
          {
            prompt: request.prompt,
            projectRoot,
            approvalMode: request.approvalMode,
            // As `lathe cloud submit` without flags.
            ...taskDefaults,
            bundleCapBytes: defaultBundleCapBytes,
            forceCloud: request.forceCloud,
            pipeline,
            attempts: request.attempts,
            budget: request.budget,
          },
          { owner: ownerFor(env), deviceId: cloud.deviceId },
        );
        if (!prepared.ok && "local" in prepared)
          return serviceError(
            "conflict",
            "E_TASK_LOCAL",
            `Not sent: ${prepared.local} Send it anyway with "Send to the fleet anyway", or run it here in a chat.`,
          );
        if (!prepared.ok) return coded(prepared.error);
        notices.push(...prepared.notices);
        const submitted = await submitTask(cloud.database.pool, await cloud.queue(), prepared.submission);
        if (!submitted.ok) return coded(submitted.error);
        return served({ task: taskWire(submitted.value), notices });
      }),
    task: (taskId) =>
      withTask(taskId, async (cloud, task) =>
        served({
          task: taskWire(task),
          steps: (await readSteps(cloud.database.pool, task.id)).map(stepWire),
        }),
      ),
    follow: (taskId, afterSeq, handlers, signal) =>
      withTask(taskId, async (cloud, task) => {
        // The feed hears an abort only once it has started listening.
        if (signal.aborted) return served(undefined);
        await followTask({
          pool: cloud.database.pool,
          url: cloud.database.url,
          taskId: task.id,
          afterSeq,
          untilFinished: false,
          signal,
          onEvent: (event) => handlers.onEvent(eventWire(event)),
          onConnection: handlers.onConnection,
        });
        return served(undefined);
      }),
    answer: (taskId, answer) =>
      withTask(taskId, async (cloud, task) => {
        const answered = await answerTask(
          cloud.database.pool,
          task.id,
          { allow: answer.allow, message: answer.message },
          cloud.deviceId,
          answer.stepIndex,
        );
        return answered.ok ? served(stepWire(answered.value)) : coded(answered.error);
      }),
    cancel: (taskId) =>
      withTask(taskId, async (cloud, task) => {
        const cancelled = await cancelTask(cloud.database.pool, await cloud.queue(), task.id, cloud.deviceId);
        return cancelled.ok ? served(taskWire(cancelled.value)) : coded(cancelled.error);
      }),
    apply: (taskId, projectRoot, attempt) =>
      withTask(taskId, async (cloud, task) => {
        const steps = await readSteps(cloud.database.pool, task.id);
        const outcome = await applyTaskPatch({ latheHome, env, projectRoot, task, steps, attempt });
        if (!outcome.ok) return coded(outcome.error);
        const { patch, checkpoint } = outcome.value;
        return served({
          applied: checkpoint !== undefined,
          taskId: task.id,
          attempt: attempt ?? null,
          summary: patchSummary(patch),
          checkpointId: checkpoint?.id ?? null,
        });
      }),
    close: () => connection.close(),
  };
}
