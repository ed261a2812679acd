// One claimer of the cloud bench's claim load: claims steps until the queue is empty, printing the
// latency of each claim (pg-boss fetch + the worker's claim of the step) as JSON; with a third
// argument, stops after that many claims.
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import {
  claimStep,
  completeStep,
  openCloudDatabase,
  startStepQueue,
  stepQueue,
} from "../../packages/cloud/dist/index.js";

const [url, deviceId, most] = process.argv.slice(2);
const limit = most === undefined ? Number.POSITIVE_INFINITY : Number(most);
const opened = await openCloudDatabase(url, { maxConnections: 2, migrate: false });
if (!opened.ok) throw new Error(opened.error.message);
const { pool } = opened.database;
const queue = await startStepQueue({ url, supervise: false, maxConnections: 2 });
const latencies = [];
let emptyFetches = 0;
while (emptyFetches < 3 && latencies.length < limit) {
  const started = performance.now();
  const [job] = await queue.fetch(stepQueue, { batchSize: 1 });
  if (job === undefined) {
    emptyFetches++;
    await new Promise((resolve) => setTimeout(resolve, 100));
    continue;
  }
  emptyFetches = 0;
  const lease = randomUUID();
  const claimed = await claimStep(pool, deviceId, job.data.taskId, job.data.stepIndex, lease, 0);
  latencies.push(performance.now() - started);
  if (claimed === undefined) throw new Error(`step of ${job.data.taskId} not claimable`);
  const held = { taskId: job.data.taskId, stepIndex: job.data.stepIndex, lease };
  await completeStep(pool, queue, deviceId, held, {
    stepPatch: "",
    taskPatch: "",
    answer: "Done.",
    branch: null,
    verify: null,
    usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
  });
  await queue.complete(stepQueue, job.id);
}
await queue.stop({ graceful: false, timeout: 1_000 });
await opened.database.close();
process.stdout.write(JSON.stringify({ deviceId, latencies }));
