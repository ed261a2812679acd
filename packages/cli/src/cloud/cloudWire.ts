import type { StepRecord, TaskEvent, TaskRecord } from "@lathe/cloud";
import {
  type CloudError,
  type CloudEvent,
  type CloudQuestion,
  type CloudStep,
  type CloudTask,
  type CloudTaskSummary,
  cloudErrorSchema,
  cloudRankingSchema,
  cloudVerdictSchema,
  cloudVerifySchema,
} from "@lathe/protocol";
import { z } from "zod";

/**
 * The task database's records as `lathe serve` sends them (protocol `cloudApi`). Columns a
 * database writer could have bent out of shape (questions, verdicts, errors) go through their
 * schema and arrive as null when they do not fit, never as something the page would trust.
 */

export function taskSummaryWire(task: TaskRecord): CloudTaskSummary {
  return {
    id: task.id,
    title: task.title,
    status: task.status,
    route: task.route,
    routeReason: task.routeReason,
    pipeline: task.pipeline?.name ?? null,
    attempts: task.attempts,
    owner: task.owner,
    deviceId: task.deviceId,
    createdAt: task.createdAt.getTime(),
    updatedAt: task.updatedAt.getTime(),
  };
}

export function taskWire(task: TaskRecord): CloudTask {
  return {
    ...taskSummaryWire(task),
    prompt: task.prompt,
    model: task.model,
    approvalMode: task.approvalMode,
    source: task.hasBundle ? "bundle" : (task.repoUrl ?? ""),
    ref: task.ref,
    branch: task.branch,
    patch: task.patch,
    error: errorWire(task.error),
    startedAt: task.startedAt?.getTime() ?? null,
    completedAt: task.completedAt?.getTime() ?? null,
    lastSeq: task.lastSeq,
    verify: task.pipeline?.verify ?? null,
    budget: task.budget,
    usage: task.usage,
    sendBacks: task.sendBacks,
    maxSendBacks: task.pipeline?.maxSendBacks ?? null,
    ranking: fitted(cloudRankingSchema, task.ranking),
  };
}

export function stepWire(step: StepRecord): CloudStep {
  return {
    index: step.index,
    name: step.name,
    status: step.status,
    dependsOn: step.dependsOn,
    agent: step.agent === null ? null : { name: step.agent.name, readonly: step.agent.readonly },
    purpose: step.purpose,
    optional: step.optional,
    runsOn: step.runsOn,
    attemptNo: step.attemptNo,
    sentBackBy: step.sentBackBy,
    workerId: step.workerId,
    retries: step.attempt,
    // A question answered long ago is history: only a waiting step shows one.
    question: step.status === "needs_input" ? questionWire(step.question) : null,
    verify: fitted(cloudVerifySchema, step.verify),
    verdict: fitted(cloudVerdictSchema, step.verdict),
    summary: step.summary,
    error: errorWire(step.error),
    usage: step.usage,
    taskPatch: step.taskPatch,
    startedAt: step.startedAt?.getTime() ?? null,
    completedAt: step.completedAt?.getTime() ?? null,
  };
}

export function eventWire(event: TaskEvent): CloudEvent {
  return {
    seq: event.seq,
    stepIndex: event.stepIndex,
    kind: event.kind,
    level: event.level,
    message: event.message,
    deviceId: event.deviceId,
    createdAt: event.createdAt.getTime(),
  };
}

/** An approval as the worker stores it. */
const storedApproval = z.object({ id: z.string(), tool: z.string(), input: z.unknown(), reason: z.string() });

/** A device step's consent as the worker stores it (`kind: "run_here"`). */
const storedConsent = z.object({
  id: z.string(),
  kind: z.literal("run_here"),
  device: z.string(),
  step: z.union([z.string(), z.number()]),
  agent: z.string(),
  prompt: z.string(),
});

function questionWire(question: unknown): CloudQuestion | null {
  const consent = storedConsent.safeParse(question);
  if (consent.success) return { ...consent.data, step: String(consent.data.step) };
  const approval = storedApproval.safeParse(question);
  return approval.success ? { kind: "approval", ...approval.data } : null;
}

function errorWire(error: unknown): CloudError | null {
  return fitted(cloudErrorSchema, error);
}

function fitted<T>(schema: z.ZodType<T>, value: unknown): T | null {
  if (value === null || value === undefined) return null;
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
