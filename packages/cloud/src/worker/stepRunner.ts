import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import type pg from "pg";
import type { PgBoss } from "pg-boss";
import { cloudSchema } from "../database/migrations.js";
import { inTransaction } from "../database/transaction.js";
import type { StepJob } from "../queue/stepQueue.js";
import { afterStepFailed } from "../tasks/stepSettlement.js";
import { budgetReached, timeLeftMs } from "../tasks/taskBudget.js";
import { appendEvent } from "../tasks/taskEvents.js";
import { readStep, readSteps, type StepRecord, type TaskRecord } from "../tasks/taskRecords.js";
import { refreshTaskStatus } from "../tasks/taskStatusRefresh.js";
import { agentFlags } from "./agentFlags.js";
import { OrderedWrites, untilWritten } from "./persistentWrites.js";
import { rankWithoutModel } from "./rankingWithoutModel.js";
import { type RunningStep, stepKey } from "./runningStep.js";
import { type Checkout, collectChanges, prepareCheckout, pushBranch } from "./stepCheckout.js";
import { claimStep, completeStep } from "./stepClaim.js";
import { describeMessage, type StepLog } from "./stepEvents.js";
import { lineageOf } from "./stepLineage.js";
import { runStepProcess } from "./stepProcess.js";
import { stepPrompt } from "./stepPrompt.js";
import { askToRunHere, waitForAnswer } from "./stepQuestion.js";
import { refusedSettings } from "./stepSettings.js";
import { checksItsWork, verifyCodingStep } from "./stepVerify.js";

export interface StepRunnerContext {
  pool: pg.Pool;
  boss: PgBoss;
  deviceId: string;
  /** The `lathe` command the step runs. */
  latheCommand: string;
  checkoutRoot: string;
  /** The worker's own environment: its provider keys, never the database's. */
  env: NodeJS.ProcessEnv;
  running: Map<string, RunningStep>;
}

/** What pg-boss says about the job in hand. */
export interface JobInHand {
  data: StepJob;
  retryCount: number;
  retryLimit: number;
  signal: AbortSignal;
}

/**
 * What becomes of the job: `completed` when the step is done with (completed, cancelled, or
 * finished by an earlier attempt); `failed` when the attempt should be retried (pg-boss retries it
 * with backoff, and after the last retry moves it to the dead-letter queue with its error);
 * `deadletter` at once when no retry can mend the failure (a repository that cannot be cloned).
 */
export type JobVerdict = { status: "completed" } | { status: "failed" | "deadletter"; error: LatheErrorInfo };

/** Runs one claimed step end to end. */
export async function runClaimedStep(context: StepRunnerContext, job: JobInHand): Promise<JobVerdict> {
  const { taskId, stepIndex } = job.data;
  const lease = randomUUID();
  const claimed = await untilWritten(() =>
    claimStep(context.pool, context.deviceId, taskId, stepIndex, lease, job.retryCount),
  );
  if (claimed === undefined) return { status: "completed" };
  const running: RunningStep = {
    taskId,
    stepIndex,
    lease,
    controller: new AbortController(),
    releasing: false,
  };
  const key = stepKey(taskId, stepIndex);
  context.running.set(key, running);
  const onJobLost = () => running.controller.abort(errorInfo("E_CANCELLED", "The queue took the step back."));
  job.signal.addEventListener("abort", onJobLost, { once: true });
  let checkout: Checkout | undefined;
  try {
    const outcome = await attempt(context, claimed.task, claimed.step, running, (made) => {
      checkout = made;
    });
    if (outcome.ok) return { status: "completed" };
    return await settleFailure(context, running, job, outcome.error, outcome.retryable);
  } finally {
    job.signal.removeEventListener("abort", onJobLost);
    context.running.delete(key);
    if (checkout !== undefined)
      await rm(checkout.dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

type AttemptOutcome = { ok: true } | { ok: false; error: LatheErrorInfo; retryable: boolean };

async function attempt(
  context: StepRunnerContext,
  task: TaskRecord,
  step: StepRecord,
  running: RunningStep,
  made: (checkout: Checkout) => void,
): Promise<AttemptOutcome> {
  const { pool, deviceId } = context;
  const signal = running.controller.signal;
  const logs = new OrderedWrites();
  const log: StepLog = (event) => {
    const id = randomUUID();
    logs.add(() => appendEvent(pool, { ...event, id, taskId: task.id, stepIndex: step.index, deviceId }));
  };
  const refused = refusedSettings({
    approvalMode: task.approvalMode,
    model: step.agent?.model ?? task.model,
  });
  if (refused !== undefined) return { ok: false, error: refused, retryable: false };
  const startedAt = task.startedAt ?? task.createdAt;
  const timeLeft = timeLeftMs(task.budget, startedAt, new Date());
  if (timeLeft === 0) {
    const reached = budgetReached(task.budget, task.usage, startedAt, new Date());
    return {
      ok: false,
      error: reached ?? errorInfo("E_BUDGET_EXCEEDED", "The task is out of time."),
      retryable: false,
    };
  }
  const steps = await untilWritten(() => readSteps(pool, task.id));
  if (step.purpose === "rank") {
    const ranked = await rankWithoutModel(pool, context.boss, deviceId, running, step, steps);
    if (ranked !== undefined) return ranked.ok ? ranked : { ...ranked, retryable: false };
  }
  if (step.runsOn !== null) {
    if (step.runsOn !== deviceId)
      return {
        ok: false,
        error: errorInfo(
          "E_TASK_STATE",
          `Step ${step.index + 1} runs on device ${step.runsOn} only, not on ${deviceId}.`,
        ),
        retryable: false,
      };
    const consent = await askToRunHere(
      pool,
      deviceId,
      running,
      { name: step.name, agent: step.agent?.name ?? step.name, prompt: step.prompt },
      logs,
    );
    if (signal.aborted)
      return {
        ok: false,
        error: errorInfo("E_CANCELLED", "The step was stopped."),
        retryable: running.releasing,
      };
    if (!consent.allow)
      return {
        ok: false,
        error: errorInfo(
          "E_USER_REJECTED",
          `The user of device ${deviceId} declined to run step ${step.index + 1} (${step.name}) there${consent.message ? `: ${consent.message}` : ""}.`,
        ),
        retryable: false,
      };
    log({ kind: "consent", message: `the user of ${deviceId} consented: step ${step.index + 1} runs there` });
  }
  const bundle = task.hasBundle ? await untilWritten(() => readBundle(pool, task.id)) : undefined;
  const prepared = await prepareCheckout({
    root: context.checkoutRoot,
    taskId: task.id,
    stepIndex: step.index,
    repoUrl: task.repoUrl,
    bundle,
    ref: task.ref,
    priorSteps: lineageOf(step, steps).map((each) => ({
      patch: each.patch ?? "",
      message: stepCommitMessage(task, each),
    })),
    deviceId,
    signal,
  });
  if (!prepared.ok) return { ok: false, error: prepared.error, retryable: false };
  const checkout = prepared.checkout;
  made(checkout);
  log({ kind: "log", message: `checkout ready on ${checkout.branch} at ${checkout.stepBase.slice(0, 12)}` });
  const stepTimeoutMs = task.timeoutSeconds * 1000;
  const budgetCuts = timeLeft !== undefined && timeLeft < stepTimeoutMs;
  const run = await runStepProcess({
    command: context.latheCommand,
    cwd: checkout.dir,
    prompt: stepPrompt(task, step, steps),
    model: step.agent?.model ?? task.model ?? undefined,
    approvalMode: task.approvalMode,
    extraArgs: agentFlags(step),
    env: context.env,
    timeoutMs: budgetCuts ? timeLeft : stepTimeoutMs,
    timeoutError: budgetCuts
      ? errorInfo(
          "E_BUDGET_EXCEEDED",
          `The task reached its time budget of ${task.budget?.seconds} s; it ends here.`,
        )
      : undefined,
    signal,
    onMessage: (message) => {
      const line = describeMessage(message);
      if (line !== undefined) log({ kind: line.kind, message: line.text, data: line.data });
    },
    onApproval: (question) => waitForAnswer(pool, deviceId, running, question, log, logs),
  });
  await logs.flush();
  if (!run.ok)
    return {
      ok: false,
      error: run.error,
      retryable:
        (run.error.code !== "E_CANCELLED" && run.error.code !== "E_BUDGET_EXCEEDED") || running.releasing,
    };
  if (run.isError) {
    const said = run.engineError?.message ?? run.answer;
    return {
      ok: false,
      error: errorInfo(
        run.engineError?.code ?? "E_TOOL_EXECUTION",
        `The run ended with ${run.subtype}: ${said.slice(0, 500)}`,
      ),
      // Unless the engine says no retry can help (a rejected key, a refused policy).
      retryable: run.engineError?.retryable ?? true,
    };
  }
  const verify = checksItsWork(task, step)
    ? await verifyCodingStep({
        latheCommand: context.latheCommand,
        cwd: checkout.dir,
        env: context.env,
        signal,
        task,
        log,
      })
    : null;
  const collected = await collectChanges(checkout, stepCommitMessage(task, step), deviceId, signal);
  if (!collected.ok) return { ok: false, error: collected.error, retryable: true };
  const lastStep = await isLastOpenStep(pool, task.id, step.index);
  const pushes =
    lastStep && step.attemptNo === null && task.repoUrl !== null && collected.changes.taskPatch !== "";
  if (pushes && task.repoUrl !== null) {
    const pushFailure = await pushBranch(checkout, task.repoUrl, signal);
    if (pushFailure !== undefined)
      log({ kind: "log", level: "warn", message: `branch not pushed: ${pushFailure.message}` });
  }
  await logs.flush();
  await untilWritten(() =>
    completeStep(context.pool, context.boss, deviceId, running, {
      ...collected.changes,
      answer: run.answer,
      branch: pushes ? checkout.branch : null,
      verify,
      usage: run.usage,
    }),
  );
  return { ok: true };
}

/**
 * A failed attempt: back to the queue when pg-boss will retry it, failed for good on the last
 * attempt or when retrying cannot help; left alone when it was cancelled or taken over.
 */
async function settleFailure(
  context: StepRunnerContext,
  running: RunningStep,
  job: JobInHand,
  error: LatheErrorInfo,
  retryable: boolean,
): Promise<JobVerdict> {
  const { taskId, stepIndex, lease } = running;
  const current = await untilWritten(() => readStep(context.pool, taskId, stepIndex));
  // Cancelled by a user (the step is marked already) or taken over by another attempt.
  if (current === undefined || current.lease !== lease) return { status: "completed" };
  const retried = retryable && job.retryCount < job.retryLimit;
  await untilWritten(() =>
    inTransaction(context.pool, async (client) => {
      const settled = await client.query(
        `UPDATE ${cloudSchema}.steps SET status = $4, error = $5, lease = NULL, question = NULL, updated_at = now(),
           completed_at = CASE WHEN $4 = 'failed' THEN now() ELSE NULL END
          WHERE task_id = $1 AND step_index = $2 AND lease = $3`,
        [taskId, stepIndex, lease, retried ? "queued" : "failed", JSON.stringify(error)],
      );
      if ((settled.rowCount ?? 0) > 0) {
        const released = running.releasing;
        await appendEvent(client, {
          taskId,
          stepIndex,
          kind: retried ? "retry" : "error",
          level: retried ? "warn" : "error",
          message: retried
            ? `${released ? "released by a worker shutting down" : `attempt ${job.retryCount + 1} failed: ${error.message}`}; queued again`
            : `step ${stepIndex + 1} failed${job.retryCount > 0 ? ` after ${job.retryCount + 1} attempts` : ""}: ${error.message}`,
          data: { error, attempt: job.retryCount },
          deviceId: context.deviceId,
        });
        if (!retried && current.attemptNo === null)
          await client.query(`UPDATE ${cloudSchema}.tasks SET error = $2 WHERE id = $1`, [
            taskId,
            JSON.stringify(error),
          ]);
        if (!retried) await afterStepFailed(client, context.boss, taskId, current, context.deviceId);
        await refreshTaskStatus(client, taskId, context.deviceId);
      }
    }),
  );
  return { status: retryable ? "failed" : "deadletter", error };
}

async function readBundle(pool: pg.Pool, taskId: string): Promise<Buffer | undefined> {
  const result = await pool.query<{ bytes: Buffer }>(
    `SELECT bytes FROM ${cloudSchema}.bundles WHERE task_id = $1`,
    [taskId],
  );
  return result.rows[0]?.bytes;
}

/** A step's commit on the task's branch. */
function stepCommitMessage(task: TaskRecord, step: StepRecord): string {
  return `${task.title} (step ${step.index + 1}${step.agent === null ? "" : `: ${step.name}`})`;
}

async function isLastOpenStep(pool: pg.Pool, taskId: string, stepIndex: number): Promise<boolean> {
  const steps = await untilWritten(() => readSteps(pool, taskId));
  return steps.every(
    (step) => step.index === stepIndex || step.status === "completed" || step.status === "skipped",
  );
}
