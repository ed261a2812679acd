import { randomUUID } from "node:crypto";
import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import type pg from "pg";
import type { PgBoss } from "pg-boss";
import { cloudSchema } from "../database/migrations.js";
import { inTransaction } from "../database/transaction.js";
import { pipelineSteps, type StepPlan } from "../pipelines/pipelineGraph.js";
import type { PipelineSpec, TaskBudget } from "../pipelines/pipelineSpec.js";
import { ensureDeviceQueue } from "../queue/stepQueue.js";
import type { RouteTarget } from "../router/taskRouter.js";
import { releaseReadySteps } from "./stepRelease.js";
import { appendEvent } from "./taskEvents.js";
import { readTask, type TaskRecord, type TaskResult } from "./taskRecords.js";

export interface TaskSubmission {
  owner: string;
  deviceId: string;
  prompt: string;
  /** A plain task's steps; a pipeline's come from the pipeline. */
  steps: StepPlan[];
  /** A clone URL or path the workers can reach; absent when the repository comes as a bundle. */
  repoUrl?: string;
  ref?: string;
  bundle?: Buffer;
  model?: string;
  approvalMode: string;
  priority: number;
  timeoutSeconds: number;
  maxRetries: number;
  route: { target: RouteTarget; reason: string };
  pipeline?: PipelineSpec;
  /** Best-of-N: coding attempts side by side (a pipeline's coder); 1 by default. */
  attempts?: number;
  budget?: TaskBudget;
  /** Steps (by name or agent) that run on the submitting device only, after its user consents. */
  onDevice?: string[];
}

/**
 * Stores a task, its steps and its bundle, and queues the steps that depend on nothing, all in one
 * transaction: a task is either wholly queued or not there at all. The rest wait, and are queued
 * by whichever step finishes last before them. Each step's job id is the step's id, so a step can
 * never be queued twice.
 */
export async function submitTask(
  pool: pg.Pool,
  boss: PgBoss,
  submission: TaskSubmission,
): Promise<TaskResult<TaskRecord>> {
  const planned = plannedSteps(submission);
  if (!planned.ok) return planned;
  const steps = planned.steps;
  if (steps.some((step) => step.onDevice)) await ensureDeviceQueue(boss, submission.deviceId);
  const taskId = randomUUID();
  const title = titleOf(submission.prompt);
  await inTransaction(pool, async (client) => {
    await client.query(
      `INSERT INTO ${cloudSchema}.tasks (id, owner, device_id, title, prompt, route, route_reason, repo_url, ref,
         has_bundle, model, approval_mode, status, priority, timeout_seconds, max_retries, pipeline, attempts, budget)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'queued', $13, $14, $15, $16, $17, $18)`,
      [
        taskId,
        submission.owner,
        submission.deviceId,
        title,
        submission.prompt,
        submission.route.target,
        submission.route.reason,
        submission.repoUrl ?? null,
        submission.ref ?? null,
        submission.bundle !== undefined,
        submission.model ?? null,
        submission.approvalMode,
        submission.priority,
        submission.timeoutSeconds,
        submission.maxRetries,
        submission.pipeline === undefined ? null : JSON.stringify(submission.pipeline),
        submission.attempts ?? 1,
        submission.budget === undefined ? null : JSON.stringify(submission.budget),
      ],
    );
    if (submission.bundle !== undefined) {
      await client.query(`INSERT INTO ${cloudSchema}.bundles (task_id, size, bytes) VALUES ($1, $2, $3)`, [
        taskId,
        submission.bundle.length,
        submission.bundle,
      ]);
    }
    for (const [index, step] of steps.entries()) {
      await client.query(
        `INSERT INTO ${cloudSchema}.steps (id, task_id, step_index, name, prompt, depends_on, status, job_id,
           agent, purpose, optional, runs_on, attempt_no)
         VALUES ($1, $2, $3, $4, $5, $6, 'waiting', $1, $7, $8, $9, $10, $11)`,
        [
          randomUUID(),
          taskId,
          index,
          step.name,
          step.prompt,
          step.dependsOn,
          step.agent === undefined ? null : JSON.stringify(step.agent),
          step.purpose ?? "work",
          step.optional ?? false,
          step.onDevice ? submission.deviceId : null,
          step.attemptNo ?? null,
        ],
      );
    }
    await appendEvent(client, {
      taskId,
      kind: "status",
      message: `queued (${submission.route.target}: ${submission.route.reason})`,
      data: { status: "queued", route: submission.route },
      deviceId: submission.deviceId,
    });
    await releaseReadySteps(client, boss, taskId, submission.deviceId);
  });
  const stored = await readTask(pool, taskId);
  if (stored === undefined) throw new Error(`task ${taskId} vanished after it was stored`);
  return { ok: true, value: stored };
}

/** The steps to store: the pipeline's (with its attempts) or the plain ones, device steps marked. */
function plannedSteps(
  submission: TaskSubmission,
): { ok: true; steps: StepPlan[] } | { ok: false; error: LatheErrorInfo } {
  const attempts = submission.attempts ?? 1;
  if (submission.pipeline === undefined && attempts > 1)
    return {
      ok: false,
      error: errorInfo("E_PIPELINE", "Best-of-N attempts need a pipeline (with a coder and a review step)."),
    };
  const planned =
    submission.pipeline === undefined
      ? { ok: true as const, steps: submission.steps }
      : pipelineSteps(submission.pipeline, submission.prompt, attempts);
  if (!planned.ok) return planned;
  const onDevice = new Set(submission.onDevice ?? []);
  const names = new Set(planned.steps.flatMap((step) => [step.name, step.agent?.name ?? step.name]));
  const unknown = [...onDevice].filter((name) => !names.has(name));
  if (unknown.length > 0)
    return {
      ok: false,
      error: errorInfo(
        "E_PIPELINE",
        `No step ${unknown.join(", ")} to run on this device; the steps are ${[...names].join(", ")}.`,
      ),
    };
  return {
    ok: true,
    steps: planned.steps.map((step) => ({
      ...step,
      onDevice:
        step.onDevice === true || onDevice.has(step.name) || onDevice.has(step.agent?.name ?? step.name),
    })),
  };
}

function titleOf(prompt: string): string {
  const line = prompt.trim().split("\n")[0] ?? "";
  return line.length > 80 ? `${line.slice(0, 77)}…` : line;
}
