import type pg from "pg";
import type { PgBoss } from "pg-boss";
import { deadStepQueue, queueFor, queueTimings } from "./stepQueue.js";

/** A step job's options: the task's priority, retries with backoff, timeout and dead letters. */
export function jobOptions(task: { priority: number; maxRetries: number; timeoutSeconds: number }) {
  return {
    priority: task.priority,
    retryLimit: task.maxRetries,
    retryBackoff: true,
    retryDelay: queueTimings.retryDelaySeconds,
    retryDelayMax: queueTimings.retryDelayMaxSeconds,
    expireInSeconds: task.timeoutSeconds,
    heartbeatSeconds: queueTimings.heartbeatSeconds,
    deadLetter: deadStepQueue,
  };
}

/** pg-boss's statements run on our transaction's connection, so they commit with it. */
export function transactionDb(client: pg.PoolClient) {
  return {
    executeSql: async (text: string, values?: unknown[]) => {
      const result = await client.query(text, values as unknown[] | undefined);
      return { rows: result.rows };
    },
  };
}

/** The jobs of stopped steps, cancelled in their queues (a waiting step has none yet: no harm). */
export async function cancelJobs(
  client: pg.PoolClient,
  boss: PgBoss,
  steps: readonly { id: string; runs_on: string | null }[],
): Promise<void> {
  const byQueue = new Map<string, string[]>();
  for (const step of steps) {
    const queue = queueFor(step.runs_on);
    byQueue.set(queue, [...(byQueue.get(queue) ?? []), step.id]);
  }
  for (const [queue, ids] of byQueue) await boss.cancel(queue, ids, { db: transactionDb(client) });
}
