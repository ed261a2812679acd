import { createHash } from "node:crypto";
import { PgBoss } from "pg-boss";

/** Every step of every task is one job of this queue; failed-out jobs land in the dead one. */
export const stepQueue = "lathe-steps";
export const deadStepQueue = "lathe-steps-dead";
/** pg-boss's own tables, beside Lathe's `lathe_cloud`. */
export const bossSchema = "lathe_boss";

/** What a step job carries: only ids, so nothing secret or large passes through the queue. */
export interface StepJob {
  taskId: string;
  stepIndex: number;
}

/**
 * pg-boss's timings as Lathe sets them (docs/CLOUD.md has the measurements). Its defaults suit
 * jobs of seconds, not an agent's tasks waited on by a person: a job released by a finished
 * dependency or due for a retry gets no NOTIFY and waited for the 30 s backstop poll, dependencies
 * were resolved every 5 s, and a dead worker's silent job was noticed by the monitor once a minute.
 */
export const queueTimings = {
  /** The poll while NOTIFY is down (and the backstop for released and retried jobs). */
  pollingIntervalSeconds: 0.5,
  notifyPollingIntervalSeconds: 1,
  /**
   * pg-boss flows resolved this often: Lathe queues a step itself once its dependencies are done,
   * so only the flows of tasks queued before it did are left to this.
   */
  flowIntervalSeconds: 1,
  /** Expired jobs found this often. */
  superviseIntervalSeconds: 2,
  /** Silent jobs (no heartbeat) found this often: by default once a minute. */
  monitorIntervalSeconds: 2,
  /** A worker that has not touched its job for this long has lost it (pg-boss's minimum). */
  heartbeatSeconds: 10,
  heartbeatRefreshSeconds: 2,
  /** Retries: 1 s, then about twice as long each time, at most a minute. */
  retryDelaySeconds: 1,
  retryDelayMaxSeconds: 60,
} as const;

export interface StepQueueOptions {
  url: string;
  /** Connections pg-boss may hold (plus one for LISTEN). */
  maxConnections?: number;
  /** Workers supervise (expire, retry, resolve flows); a command that only submits does not. */
  supervise: boolean;
  onError?: (error: Error) => void;
}

/**
 * The queue of the steps only one device may run (hybrid steps): its own, so no other worker can
 * even fetch them. Named by a hash, since a device id may hold characters a queue name may not.
 */
export function deviceQueue(deviceId: string): string {
  return `lathe-steps-device-${createHash("sha256").update(deviceId).digest("hex").slice(0, 20)}`;
}

/** The queue a step's job goes to. */
export function queueFor(runsOn: string | null): string {
  return runsOn === null ? stepQueue : deviceQueue(runsOn);
}

/** Makes a device's queue if it is not there yet (before a transaction sends to it). */
export async function ensureDeviceQueue(boss: PgBoss, deviceId: string): Promise<string> {
  const name = deviceQueue(deviceId);
  if ((await boss.getQueue(name)) === null)
    await boss.createQueue(name, stepQueueOptions()).catch(ignoreExisting);
  return name;
}

function stepQueueOptions() {
  return {
    deadLetter: deadStepQueue,
    retryBackoff: true,
    retryDelay: queueTimings.retryDelaySeconds,
    retryDelayMax: queueTimings.retryDelayMaxSeconds,
    heartbeatSeconds: queueTimings.heartbeatSeconds,
    notify: true,
  } as Parameters<PgBoss["createQueue"]>[1];
}

/** Starts pg-boss on the task database, its schema and the two queues made when missing. */
export async function startStepQueue(options: StepQueueOptions): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: options.url,
    schema: bossSchema,
    max: options.maxConnections ?? 3,
    application_name: "lathe-queue",
    useListenNotify: true,
    supervise: options.supervise,
    schedule: false,
    registerInstance: false,
    superviseIntervalSeconds: queueTimings.superviseIntervalSeconds,
    monitorIntervalSeconds: queueTimings.monitorIntervalSeconds,
    flowIntervalSeconds: queueTimings.flowIntervalSeconds,
    openTelemetry: { enabled: false },
  });
  boss.on("error", options.onError ?? (() => undefined));
  await boss.start();
  if ((await boss.getQueue(deadStepQueue)) === null) {
    await boss.createQueue(deadStepQueue, { retryLimit: 0 }).catch(ignoreExisting);
  }
  if ((await boss.getQueue(stepQueue)) === null) {
    await boss.createQueue(stepQueue, stepQueueOptions()).catch(ignoreExisting);
  }
  return boss;
}

/** Two processes may create a queue at once; the second's "already exists" is no failure. */
function ignoreExisting(error: unknown): void {
  if (error instanceof Error && /already exists|duplicate key/i.test(error.message)) return;
  throw error;
}
