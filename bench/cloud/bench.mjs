// Cloud tasks (issue 20): a throwaway PostgreSQL, real `lathe worker` processes on scripted models.
// (1) submit → step started, p50/p95, with an idle worker (target < 100 ms): pg-boss's NOTIFY wakes
// the worker, which claims the step. (2) Tasks per minute with 1, 2 and 4 workers when each task's
// model takes 2 s (the model's time simulated, so the fleet and not this machine's 2 cores is what
// is measured), and the scaling ratio (target near-linear). (3) 10,000 queued steps claimed by 16
// claimers (processes with the workers' queue and claim, no engine; one claimer alone first, for
// the claim's own cost): claim latency p50/p95, claims per second, and the database's size before
// and after. (4) Pipelines (pipelineLoad.mjs): a pipeline's own overhead per step, what any step
// costs beyond its model, and a three-attempt best-of-N task with three workers against one.
import { performance } from "node:perf_hooks";
import { openCloudDatabase, readSteps, startStepQueue, submitTask } from "../../packages/cloud/dist/index.js";
import { startThrowawayPostgres } from "../../packages/testkit/dist/index.js";
import { startBenchWorker, taskDone, tempRepository } from "./benchFleet.mjs";
import { measureClaims } from "./claimLoad.mjs";
import { percentile, round } from "./figures.mjs";
import { measurePipelines } from "./pipelineLoad.mjs";

const latencySamples = 30;
const modelSeconds = 2;
const tasksPerWorker = 6;
const fleetSizes = [1, 2, 4];

export async function run() {
  const postgres = await startThrowawayPostgres();
  const opened = await openCloudDatabase(postgres.url, { maxConnections: 8 });
  if (!opened.ok) throw new Error(opened.error.message);
  const database = opened.database;
  const queue = await startStepQueue({ url: postgres.url, supervise: false });
  const repo = tempRepository();
  const submit = async (prompt, extra = {}) => {
    const submitted = await submitTask(database.pool, queue, {
      owner: "bench",
      deviceId: "bench",
      prompt,
      steps: [{ name: "task", prompt, dependsOn: [] }],
      repoUrl: `file://${repo}`,
      approvalMode: "auto_edit",
      priority: 0,
      timeoutSeconds: 600,
      maxRetries: 2,
      route: { target: "cloud", reason: "bench" },
      ...extra,
    });
    if (!submitted.ok) throw new Error(submitted.error.message);
    return submitted.value;
  };
  try {
    const latency = await measureStartLatency(postgres.url, database, submit);
    const handOff = await measureHandOff(postgres.url, database, submit);
    const throughput = await measureThroughput(postgres.url, database, submit);
    const pipelines = await measurePipelines(postgres.url, database, submit);
    const claims = await measureClaims(postgres.url);
    return [
      {
        metric: `submit → step started, p50 (idle worker, ${latencySamples} tasks)`,
        value: latency.p50,
        unit: "ms",
        target: "< 100",
      },
      { metric: "submit → step started, p95", value: latency.p95, unit: "ms", target: "< 100" },
      {
        metric: `dependency hand-off, p50 (a step completed → the next started, ${handOff.count} hand-offs)`,
        value: handOff.p50,
        unit: "ms",
      },
      { metric: "dependency hand-off, p95", value: handOff.p95, unit: "ms" },
      ...throughput.map(({ workers, perMinute }) => ({
        metric: `tasks per minute, ${workers} worker${workers === 1 ? "" : "s"} (model ${modelSeconds} s per task)`,
        value: perMinute,
        unit: "tasks/min",
      })),
      {
        metric: `scaling, ${fleetSizes.at(-1)} workers ÷ 1 worker`,
        value: round(throughput.at(-1).perMinute / throughput[0].perMinute, 2),
        unit: "×",
        target: `near ${fleetSizes.at(-1)}`,
      },
      {
        metric: `claim latency p50, 1 claimer alone (its ${claims.aloneClaims} claims)`,
        value: claims.aloneP50,
        unit: "ms",
      },
      { metric: "claim latency p95, 1 claimer alone", value: claims.aloneP95, unit: "ms" },
      {
        metric: `claim latency p50 (${claims.steps} queued steps, ${claims.claimers} claimers)`,
        value: claims.p50,
        unit: "ms",
      },
      { metric: "claim latency p95", value: claims.p95, unit: "ms" },
      { metric: `claims per second, ${claims.claimers} claimers`, value: claims.perSecond, unit: "/s" },
      { metric: `database size, ${claims.steps} steps queued`, value: claims.queuedMb, unit: "MB" },
      { metric: "database size, after all claimed and completed", value: claims.doneMb, unit: "MB" },
      {
        metric: "pipeline overhead per step (4-step pipeline − the same 4 steps as a plain chain, ÷ 4)",
        value: pipelines.overheadPerStep,
        unit: "ms",
        target: "< 50",
      },
      {
        metric: "per step, plain chain (model answering at once)",
        value: pipelines.chainPerStep,
        unit: "ms",
      },
      { metric: "per step, pipeline", value: pipelines.pipelinePerStep, unit: "ms" },
      {
        metric: "a step's claim → its model's first request (checkout, engine start)",
        value: pipelines.claimToModel,
        unit: "ms",
      },
      {
        metric: "a step's last model answer → the next step claimed",
        value: pipelines.answerToNextClaim,
        unit: "ms",
      },
      {
        metric: "3-attempt task end to end, 1 worker (model 2 s per attempt)",
        value: pipelines.attemptsOneWorker,
        unit: "s",
      },
      { metric: "3-attempt task end to end, 3 workers", value: pipelines.attemptsThreeWorkers, unit: "s" },
      {
        metric: "3-attempt task, 1 worker ÷ 3 workers",
        value: round(pipelines.attemptsOneWorker / pipelines.attemptsThreeWorkers, 2),
        unit: "×",
      },
    ];
  } finally {
    await queue.stop({ graceful: false, timeout: 1_000 }).catch(() => undefined);
    await database.close();
    await postgres.remove();
  }
}

/** One idle worker; each task submitted after the previous finished; start = the step's claim. */
async function measureStartLatency(url, database, submit) {
  const worker = await startBenchWorker(
    url,
    "latency",
    Array.from({ length: latencySamples + 2 }, () => ({ text: "Done." })),
  );
  const samples = [];
  try {
    for (let index = 0; index < latencySamples + 2; index++) {
      // Let the worker settle back to idle (its engine gone, its poll asleep) before each submit.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const wall = Date.now();
      const task = await submit(`latency ${index}`);
      await taskDone(database, task.id);
      const [step] = await readSteps(database.pool, task.id);
      // The first two warm the worker's connections up.
      if (index >= 2) samples.push(step.startedAt.getTime() - wall);
    }
  } finally {
    await worker.stop();
  }
  return { p50: percentile(samples, 50), p95: percentile(samples, 95) };
}

/** Three-step chains on one idle worker: how long a finished step's successor waits to start. */
async function measureHandOff(url, database, submit) {
  const chains = 6;
  const worker = await startBenchWorker(
    url,
    "hand-off",
    Array.from({ length: chains * 3 }, () => ({ text: "Done." })),
  );
  const gaps = [];
  try {
    for (let index = 0; index < chains; index++) {
      const task = await submit(`chain ${index}`, {
        steps: [0, 1, 2].map((step) => ({
          name: `step ${step + 1}`,
          prompt: "go on",
          dependsOn: step === 0 ? [] : [step - 1],
        })),
      });
      await taskDone(database, task.id);
      const steps = await readSteps(database.pool, task.id);
      for (let step = 1; step < steps.length; step++)
        gaps.push(steps[step].startedAt.getTime() - steps[step - 1].completedAt.getTime());
    }
  } finally {
    await worker.stop();
  }
  return { count: gaps.length, p50: percentile(gaps, 50), p95: percentile(gaps, 95) };
}

async function measureThroughput(url, database, submit) {
  const figures = [];
  for (const size of fleetSizes) {
    const count = size * tasksPerWorker;
    const turns = Array.from({ length: count }, () => ({ hang_ms: modelSeconds * 1000, text: "Done." }));
    const workers = [];
    for (let index = 0; index < size; index++)
      workers.push(await startBenchWorker(url, `fleet${size}-${index}`, turns));
    const started = performance.now();
    const tasks = [];
    for (let index = 0; index < count; index++) tasks.push(await submit(`throughput ${index}`));
    for (const task of tasks) await taskDone(database, task.id, 300_000);
    const minutes = (performance.now() - started) / 60_000;
    figures.push({ workers: size, perMinute: round(count / minutes, 1) });
    await Promise.all(workers.map((worker) => worker.stop()));
  }
  return figures;
}
