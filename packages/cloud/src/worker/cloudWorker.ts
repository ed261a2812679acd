import type { LatheErrorInfo } from "@lathe/protocol";
import type { JobWithMetadata, PgBoss } from "pg-boss";
import { type CloudDatabase, connectionError, openCloudDatabase } from "../database/cloudDatabase.js";
import { cloudSchema } from "../database/migrations.js";
import {
  ensureDeviceQueue,
  queueTimings,
  type StepJob,
  startStepQueue,
  stepQueue,
} from "../queue/stepQueue.js";
import { listenToChannels } from "../sync/channelListener.js";
import { registerDevice } from "../sync/deviceRegistry.js";
import { controlChannel } from "../sync/eventChannels.js";
import { recoverLostSteps } from "./lostSteps.js";
import { type RunningStep, stepKey } from "./runningStep.js";
import { runClaimedStep } from "./stepRunner.js";

export interface WorkerOptions {
  url: string | undefined;
  deviceId: string;
  labels: readonly string[];
  concurrency: number;
  /** Only this device's own steps (hybrid steps, each after its user consents), none of the fleet's. */
  deviceOnly: boolean;
  latheCommand: string;
  checkoutRoot: string;
  env: NodeJS.ProcessEnv;
  /** What the worker has to say (claims, losses, shutdown), one line each. */
  report(line: string): void;
}

export interface RunningWorker {
  /**
   * Stops claiming, lets the steps in hand finish for `graceMs`, then releases the rest (their
   * process groups stopped, the steps queued again for another worker).
   */
  stop(graceMs: number): Promise<void>;
}

/** How often the worker says it is alive, and looks for steps whose worker is gone. */
const housekeepingMs = 5_000;

export async function startCloudWorker(
  options: WorkerOptions,
): Promise<{ ok: true; worker: RunningWorker } | { ok: false; error: LatheErrorInfo }> {
  const opened = await openCloudDatabase(options.url, { maxConnections: options.concurrency + 2 });
  if (!opened.ok) return opened;
  const database = opened.database;
  let boss: PgBoss;
  try {
    await registerDevice(database.pool, { id: options.deviceId, kind: "worker", labels: options.labels });
    boss = await startStepQueue({
      url: database.url,
      supervise: true,
      maxConnections: Math.max(2, Math.min(options.concurrency + 1, 4)),
      onError: (error) => options.report(`queue: ${error.message}`),
    });
  } catch (error) {
    await database.close();
    return { ok: false, error: connectionError(error, database.url) };
  }
  const running = new Map<string, RunningStep>();
  let ownQueue: string;
  try {
    ownQueue = await ensureDeviceQueue(boss, options.deviceId);
  } catch (error) {
    await boss.stop({ graceful: false }).catch(() => undefined);
    await database.close();
    return { ok: false, error: connectionError(error, database.url) };
  }
  const context = {
    pool: database.pool,
    boss,
    deviceId: options.deviceId,
    latheCommand: options.latheCommand,
    checkoutRoot: options.checkoutRoot,
    env: options.env,
    running,
  };
  const control = listenToChannels({
    url: database.url,
    channels: [controlChannel],
    onAnnouncement: (announcement) => {
      if (announcement.step === null) return;
      const step = running.get(stepKey(announcement.task, announcement.step));
      if (step === undefined) return;
      if (announcement.kind === "cancel") step.controller.abort();
      if (announcement.kind === "answer") step.answered?.();
    },
    // Whatever was announced while disconnected: a cancelled step is found by its lease, gone.
    onConnected: () => void keepSteps(database, running).catch(() => undefined),
    onDisconnected: (error) =>
      options.report(`database connection lost${error ? `: ${error.message}` : ""}; reconnecting`),
  });
  const housekeeping = setInterval(() => {
    void database.pool
      .query(`UPDATE ${cloudSchema}.devices SET last_seen_at = now(), worker_seen_at = now() WHERE id = $1`, [
        options.deviceId,
      ])
      .catch(() => undefined);
    void keepSteps(database, running).catch(() => undefined);
    void recoverLostSteps(database.pool, boss, options.deviceId)
      .then((lines) => {
        for (const line of lines) options.report(line);
      })
      .catch(() => undefined);
  }, housekeepingMs);
  const workIds: string[] = [];
  // A finished step's successors are queued in the transaction that finished it: this worker's
  // fetch is woken at once for them rather than at its next poll.
  const handOff = () => {
    for (const id of workIds) boss.notifyWorker(id);
  };
  const work = (queue: string, concurrency: number) =>
    boss.work(
      queue,
      {
        localConcurrency: concurrency,
        batchSize: 1,
        includeMetadata: true,
        pollingIntervalSeconds: queueTimings.pollingIntervalSeconds,
        notifyPollingIntervalSeconds: queueTimings.notifyPollingIntervalSeconds,
        heartbeatRefreshSeconds: queueTimings.heartbeatRefreshSeconds,
        // Each job settled as the step went: retried, dead-lettered at once, or completed.
        perJobResults: true,
      },
      async (jobs: JobWithMetadata<StepJob>[]) => {
        const results = [];
        for (const job of jobs) {
          options.report(`step ${job.data.stepIndex + 1} of task ${job.data.taskId.slice(0, 8)} claimed`);
          const verdict = await runClaimedStep(context, {
            data: job.data,
            retryCount: job.retryCount,
            retryLimit: job.retryLimit,
            signal: job.signal,
          });
          if (verdict.status === "completed") {
            // Completed here rather than when the handler returns, so the hand-off below sees it.
            await boss.complete(queue, { id: job.id, retryCount: job.retryCount }).catch(() => undefined);
            handOff();
            results.push({ id: job.id, status: verdict.status });
          } else results.push({ id: job.id, status: verdict.status, output: verdict.error });
        }
        return results;
      },
    );
  // This device's own steps wait for its user, so they get a slot of their own.
  workIds.push(await work(ownQueue, 1));
  if (!options.deviceOnly) workIds.push(await work(stepQueue, options.concurrency));
  options.report(
    options.deviceOnly
      ? `worker ${options.deviceId} ready: this device's steps only, each after you consent`
      : `worker ${options.deviceId} ready: ${options.concurrency} at a time`,
  );

  return {
    ok: true,
    worker: {
      async stop(graceMs) {
        await boss.offWork(stepQueue, { wait: false }).catch(() => undefined);
        await boss.offWork(ownQueue, { wait: false }).catch(() => undefined);
        const deadline = Date.now() + graceMs;
        while (running.size > 0 && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 100));
        for (const step of running.values()) {
          step.releasing = true;
          step.controller.abort();
        }
        while (running.size > 0) await new Promise((resolve) => setTimeout(resolve, 100));
        clearInterval(housekeeping);
        await control.close();
        await boss.stop({ graceful: true, timeout: 5_000 }).catch(() => undefined);
        await database.close();
      },
    },
  };
}

/**
 * The steps in hand, kept: their heartbeat renewed, those whose lease is gone (cancelled while no
 * notification could reach this worker, or taken over) stopped, and those waiting for an answer
 * woken to look for one.
 */
async function keepSteps(database: CloudDatabase, running: Map<string, RunningStep>) {
  const leases = [...running.values()].map((step) => step.lease);
  if (leases.length === 0) return;
  const held = await database.pool.query<{ lease: string }>(
    `UPDATE ${cloudSchema}.steps SET heartbeat_at = now() WHERE lease = ANY($1::uuid[]) RETURNING lease`,
    [leases],
  );
  const stillHeld = new Set(held.rows.map((row) => row.lease));
  for (const step of running.values()) {
    if (!leases.includes(step.lease)) continue;
    if (stillHeld.has(step.lease)) step.answered?.();
    else step.controller.abort();
  }
}
