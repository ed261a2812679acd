import type pg from "pg";
import type { PgBoss } from "pg-boss";
import { cloudSchema } from "../database/migrations.js";
import { skipRequests } from "../pipelines/stepAnswers.js";
import { jobOptions, transactionDb } from "../queue/stepJobs.js";
import { queueFor, type StepJob } from "../queue/stepQueue.js";
import { appendEvent } from "./taskEvents.js";
import { readSteps, readTask, type StepRecord } from "./taskRecords.js";
import type { StepStatus } from "./taskStatus.js";

/** A device whose worker has not been heard from for this long is said to be offline. */
const deviceSilenceSeconds = 30;

const done: ReadonlySet<StepStatus> = new Set(["completed", "skipped"]);
const settled: ReadonlySet<StepStatus> = new Set(["completed", "skipped", "failed", "cancelled"]);

/**
 * Queues every waiting step whose dependencies are done, in the caller's transaction (the one that
 * finished the last of them, or stored the task): our tables decide what runs next, pg-boss only
 * delivers. An optional step an earlier step said to skip is marked skipped instead, and what
 * waited on it is looked at again. A ranking waits until every attempt has settled, passed or not.
 * Returns the indexes queued.
 */
export async function releaseReadySteps(
  client: pg.PoolClient,
  boss: PgBoss,
  taskId: string,
  deviceId: string,
): Promise<number[]> {
  const task = await readTask(client, taskId);
  if (task === undefined) return [];
  const queued: number[] = [];
  for (let changed = true; changed; ) {
    changed = false;
    const steps = await readSteps(client, taskId);
    const byIndex = new Map(steps.map((step) => [step.index, step]));
    for (const step of steps) {
      if (step.status !== "waiting") continue;
      const parents = step.dependsOn.map((index) => byIndex.get(index));
      const ready = step.purpose === "rank" ? settled : done;
      if (!parents.every((parent) => parent !== undefined && ready.has(parent.status))) continue;
      changed = true;
      const asker = step.optional ? skipAskedBy(step, byIndex) : undefined;
      if (asker !== undefined) {
        await client.query(
          `UPDATE ${cloudSchema}.steps SET status = 'skipped', completed_at = now(), updated_at = now()
            WHERE id = $1 AND status = 'waiting'`,
          [step.id],
        );
        await appendEvent(client, {
          taskId,
          stepIndex: step.index,
          kind: "skip",
          message: `step ${step.index + 1} (${step.name}) skipped: the ${asker.name} said it is not needed`,
          deviceId,
        });
        continue;
      }
      await client.query(
        `UPDATE ${cloudSchema}.steps SET status = 'queued', released_at = now(), updated_at = now()
          WHERE id = $1 AND status = 'waiting'`,
        [step.id],
      );
      const job: StepJob = { taskId, stepIndex: step.index };
      await boss.send(queueFor(step.runsOn), job, {
        id: step.id,
        ...jobOptions(task),
        db: transactionDb(client),
      });
      queued.push(step.index);
      if (step.runsOn !== null) await sayWhereDeviceStepWaits(client, taskId, step, deviceId);
    }
  }
  return queued;
}

/** The step whose answer asked to skip this one (`SKIP: name`), among those it builds on. */
function skipAskedBy(step: StepRecord, byIndex: Map<number, StepRecord>): StepRecord | undefined {
  const wanted = step.agent?.name ?? step.name;
  const seen = new Set<number>();
  const pending = [...step.dependsOn];
  while (pending.length > 0) {
    const index = pending.pop() as number;
    if (seen.has(index)) continue;
    seen.add(index);
    const ancestor = byIndex.get(index);
    if (ancestor === undefined) continue;
    if (ancestor.summary !== null && skipRequests(ancestor.summary).includes(wanted)) return ancestor;
    pending.push(...ancestor.dependsOn);
  }
  return undefined;
}

/** A device step is held for its device: the task says so, and whether that device is there now. */
async function sayWhereDeviceStepWaits(
  client: pg.PoolClient,
  taskId: string,
  step: StepRecord,
  deviceId: string,
): Promise<void> {
  const seen = await client.query<{ silent: number | null }>(
    `SELECT extract(epoch FROM now() - worker_seen_at)::integer AS silent FROM ${cloudSchema}.devices WHERE id = $1`,
    [step.runsOn],
  );
  const silent = seen.rows[0]?.silent ?? null;
  const online = silent !== null && silent < deviceSilenceSeconds;
  await appendEvent(client, {
    taskId,
    stepIndex: step.index,
    kind: "device",
    level: online ? "info" : "warn",
    message: online
      ? `step ${step.index + 1} (${step.name}) waits for device ${step.runsOn}, which asks its user before it runs`
      : `step ${step.index + 1} (${step.name}) is held for device ${step.runsOn}, which is offline${silent === null ? " (no worker has run there)" : ` (its worker last seen ${silent} s ago)`}: it runs when that device's worker is back`,
    data: { device: step.runsOn, online },
    deviceId,
  });
}
