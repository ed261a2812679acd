import { randomUUID } from "node:crypto";
import type pg from "pg";
import type { PgBoss } from "pg-boss";
import { cloudSchema } from "../database/migrations.js";
import { noUsage, type Usage } from "../pipelines/pipelineSpec.js";
import { parseRanking, parseVerdict } from "../pipelines/stepAnswers.js";
import { releaseReadySteps } from "./stepRelease.js";
import { budgetReached, endForBudget } from "./taskBudget.js";
import { appendEvent } from "./taskEvents.js";
import {
  type Ranking,
  readSteps,
  readTask,
  type StepRecord,
  type TaskRecord,
  type Verdict,
} from "./taskRecords.js";

/**
 * What follows a step's completion, in the transaction that stored it: its usage counted against
 * the task's budget, a review's verdict acted on (the work sent back to the coder, within the
 * pipeline's bound), a ranking's order stored with the winner's patch, and the steps now ready
 * queued — or the task ended, when it reached its budget.
 */
export async function afterStepCompleted(
  client: pg.PoolClient,
  boss: PgBoss,
  taskId: string,
  stepIndex: number,
  deviceId: string,
): Promise<void> {
  const task = await readTask(client, taskId);
  const steps = await readSteps(client, taskId);
  const step = steps.find((each) => each.index === stepIndex);
  if (task === undefined || step === undefined) return;
  const usage = addUsage(task.usage, step.usage ?? noUsage);
  // The task's patch is the latest step's, along the one line of work (an attempt's waits for
  // its ranking); one statement, since every step of the fleet passes here.
  const handsOnPatch = step.purpose === "work" && step.attemptNo === null && step.taskPatch !== null;
  await client.query(
    `UPDATE ${cloudSchema}.tasks SET usage = $2, patch = CASE WHEN $3 THEN $4 ELSE patch END WHERE id = $1`,
    [taskId, JSON.stringify(usage), handsOnPatch, step.taskPatch],
  );
  if (step.purpose === "review") await actOnReview(client, task, step, steps, deviceId);
  if (step.purpose === "rank") await storeRanking(client, task, step, steps, deviceId);
  const reached = budgetReached(task.budget, usage, task.startedAt ?? task.createdAt, new Date());
  if (reached !== undefined) {
    await endForBudget(client, boss, taskId, reached, deviceId);
    return;
  }
  // A review's send-back has just added steps; otherwise only what was stored as waiting can start.
  if (step.purpose === "review" || steps.some((each) => each.status === "waiting"))
    await releaseReadySteps(client, boss, taskId, deviceId);
}

/** A step failed for good: a best-of-N attempt's failure may be what its ranking waited for. */
export async function afterStepFailed(
  client: pg.PoolClient,
  boss: PgBoss,
  taskId: string,
  step: { attemptNo: number | null },
  deviceId: string,
): Promise<void> {
  if (step.attemptNo !== null) await releaseReadySteps(client, boss, taskId, deviceId);
}

function addUsage(total: Usage, more: Usage): Usage {
  return {
    inputTokens: total.inputTokens + more.inputTokens,
    outputTokens: total.outputTokens + more.outputTokens,
    costUsd: Math.round((total.costUsd + more.costUsd) * 1e6) / 1e6,
  };
}

async function actOnReview(
  client: pg.PoolClient,
  task: TaskRecord,
  review: StepRecord,
  steps: readonly StepRecord[],
  deviceId: string,
): Promise<void> {
  const parsed = parseVerdict(review.summary ?? "");
  const verdict: Verdict = {
    decision: parsed.decision,
    notes: parsed.notes,
    ...(parsed.assumed ? { assumed: true } : {}),
  };
  await client.query(`UPDATE ${cloudSchema}.steps SET verdict = $2 WHERE id = $1`, [
    review.id,
    JSON.stringify(verdict),
  ]);
  const firstLine =
    verdict.notes
      .split("\n")
      .find((line) => line.trim() !== "")
      ?.trim() ?? "";
  if (verdict.decision === "approve") {
    await appendEvent(client, {
      taskId: task.id,
      stepIndex: review.index,
      kind: "review",
      message: verdict.assumed
        ? "the review gave no verdict line: taken as approval"
        : "the reviewer approved the work",
      data: verdict,
      deviceId,
    });
    return;
  }
  const allowed = task.pipeline?.maxSendBacks ?? 0;
  const coder = nearestCoder(review, steps, task.pipeline?.coder);
  if (task.sendBacks >= allowed || coder === undefined) {
    await appendEvent(client, {
      taskId: task.id,
      stepIndex: review.index,
      kind: "review",
      level: "warn",
      message: `the reviewer still asks for changes after ${task.sendBacks} send-back(s), the most this pipeline allows: the work goes on as it is (${firstLine})`,
      data: verdict,
      deviceId,
    });
    return;
  }
  await sendBack(client, task, review, coder, steps);
  await appendEvent(client, {
    taskId: task.id,
    stepIndex: review.index,
    kind: "sendback",
    level: "warn",
    message: `the reviewer sent the work back to the ${coder.agent?.name ?? coder.name} (${task.sendBacks + 1} of ${allowed}): ${firstLine}`,
    data: verdict,
    deviceId,
  });
}

/** The coding step a review looks at: the nearest one it builds on. */
function nearestCoder(
  review: StepRecord,
  steps: readonly StepRecord[],
  coderName: string | undefined,
): StepRecord | undefined {
  const byIndex = new Map(steps.map((step) => [step.index, step]));
  const pending = [...review.dependsOn].sort((a, b) => b - a);
  const seen = new Set<number>();
  while (pending.length > 0) {
    const index = pending.shift() as number;
    if (seen.has(index)) continue;
    seen.add(index);
    const step = byIndex.get(index);
    if (step === undefined) continue;
    if (step.agent !== null && step.agent.name === coderName) return step;
    pending.push(...[...step.dependsOn].sort((a, b) => b - a));
  }
  return undefined;
}

/**
 * The graph grows: the coder again after the review (from the reviewed work, with the review's
 * requests), then the review again; what waited on the first review waits on the second.
 */
async function sendBack(
  client: pg.PoolClient,
  task: TaskRecord,
  review: StepRecord,
  coder: StepRecord,
  steps: readonly StepRecord[],
): Promise<void> {
  const next = Math.max(...steps.map((step) => step.index)) + 1;
  const add = (index: number, from: StepRecord, name: string, dependsOn: number, sentBackBy: number | null) =>
    client.query(
      `INSERT INTO ${cloudSchema}.steps (id, task_id, step_index, name, prompt, depends_on, status, job_id,
         agent, purpose, optional, runs_on, sent_back_by)
       SELECT $7, task_id, $3, $4, prompt, $5, 'waiting', $7, agent, purpose, false, runs_on, $6
         FROM ${cloudSchema}.steps WHERE task_id = $1 AND step_index = $2`,
      [task.id, from.index, index, name, [dependsOn], sentBackBy, randomUUID()],
    );
  await add(next, coder, `${coder.agent?.name ?? coder.name} (sent back)`, review.index, review.index);
  await add(next + 1, review, `${review.agent?.name ?? review.name} (again)`, next, null);
  await client.query(
    `UPDATE ${cloudSchema}.steps SET depends_on = array_replace(depends_on, $2, $3)
      WHERE task_id = $1 AND status = 'waiting' AND step_index < $4 AND $2 = ANY(depends_on)`,
    [task.id, review.index, next + 1, next],
  );
  await client.query(`UPDATE ${cloudSchema}.tasks SET send_backs = send_backs + 1 WHERE id = $1`, [task.id]);
}

/**
 * The ranking's order among the attempts that passed their check, the rest rejected with why; the
 * task's patch is the best attempt's, so `apply` without `--attempt` takes it.
 */
async function storeRanking(
  client: pg.PoolClient,
  task: TaskRecord,
  rank: StepRecord,
  steps: readonly StepRecord[],
  deviceId: string,
): Promise<void> {
  const { passed, rejected } = attemptsOf(rank, steps);
  const parsed = parseRanking(
    rank.summary ?? "",
    passed.map((step) => step.attemptNo as number),
  );
  const ranking: Ranking = { order: parsed.order, rejected, reason: parsed.reason };
  const best = passed.find((step) => step.attemptNo === parsed.order[0]);
  const verdict: Verdict = {
    decision: "rank",
    notes: parsed.reason,
    order: parsed.order,
    ...(parsed.assumed ? { assumed: true } : {}),
  };
  await client.query(`UPDATE ${cloudSchema}.steps SET verdict = $2, task_patch = $3 WHERE id = $1`, [
    rank.id,
    JSON.stringify(verdict),
    best?.taskPatch ?? null,
  ]);
  await client.query(`UPDATE ${cloudSchema}.tasks SET ranking = $2, patch = $3 WHERE id = $1`, [
    task.id,
    JSON.stringify(ranking),
    best?.taskPatch ?? null,
  ]);
  await appendEvent(client, {
    taskId: task.id,
    stepIndex: rank.index,
    kind: "rank",
    message: `attempts ranked ${parsed.order.map((attempt) => `#${attempt}`).join(" > ")}${rejected.length > 0 ? `; rejected ${rejected.map((each) => `#${each.attempt} (${each.reason})`).join(", ")}` : ""}`,
    data: ranking,
    deviceId,
  });
}

/** The attempts a ranking weighs: those that completed and passed their check, and the others. */
export function attemptsOf(
  rank: StepRecord,
  steps: readonly StepRecord[],
): { passed: StepRecord[]; rejected: { attempt: number; reason: string }[] } {
  const attempts = steps
    .filter((step) => rank.dependsOn.includes(step.index) && step.attemptNo !== null)
    .sort((a, b) => (a.attemptNo as number) - (b.attemptNo as number));
  const passed: StepRecord[] = [];
  const rejected: { attempt: number; reason: string }[] = [];
  for (const step of attempts) {
    const attempt = step.attemptNo as number;
    if (step.status !== "completed")
      rejected.push({ attempt, reason: `it ${step.status}${errorText(step.error)}` });
    else if (step.verify !== null && !step.verify.passed)
      rejected.push({
        attempt,
        reason: `its check \`${step.verify.command}\` failed${step.verify.exitCode === null ? "" : ` (exit ${step.verify.exitCode})`}`,
      });
    else passed.push(step);
  }
  return { passed, rejected };
}

function errorText(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === "string" ? `: ${message.slice(0, 200)}` : "";
}
