// Pipelines on the fleet (issue 21). (1) A pipeline's own overhead per step: the same four steps
// run as a plain chain and as a pipeline (planner → coder → reviewer → documenter: agent flags,
// composed prompts with the artifacts before them, the verdict read, the next step released), on
// one idle worker whose model answers at once; (pipeline − chain) ÷ 4, medians of the runs. Beside
// it, what any step costs beyond its model: from the claim to the engine's first request, and from
// the engine's answer to the next step's claim. (2) Best-of-N: a three-attempt task (each attempt's
// model takes 2 s, its check `node check.mjs` run in the sandbox, then the ranking) end to end with
// three workers and with one.
import { performance } from "node:perf_hooks";
import { defaultPipeline, quickPipeline, readSteps } from "../../packages/cloud/dist/index.js";
import { startFakeLlm } from "../../packages/testkit/dist/index.js";
import { startBenchWorker, taskDone, tempRepository } from "./benchFleet.mjs";
import { median, round } from "./figures.mjs";

const runs = 5;
const attemptModelSeconds = 2;
const check =
  'import { readFileSync } from "node:fs";\nprocess.exit(readFileSync("greet.txt", "utf8") === "hello world\\n" ? 0 : 1);\n';

/** planner → coder → reviewer → documenter: the default pipeline without its optional researcher. */
const fourSteps = {
  ...defaultPipeline,
  steps: defaultPipeline.steps.filter((step) => step.agent.name !== "researcher"),
};

export async function measurePipelines(url, database, submit) {
  const overhead = await measureOverhead(url, database, submit);
  const attempts = await measureAttempts(url, database, submit);
  return { ...overhead, ...attempts };
}

async function measureOverhead(url, database, submit) {
  const model = await startFakeLlm({
    // Generously many: a step may ask more than once (the engine checks an answer that did nothing).
    script: { turns: Array.from({ length: runs * 40 }, () => ({ text: "Done.\nVERDICT: approve" })) },
  });
  const worker = await startBenchWorker(url, "pipeline-overhead", [], model);
  const repo = tempRepository();
  const chain = [];
  const pipeline = [];
  const beforeEngine = [];
  const afterEngine = [];
  try {
    for (let run = 0; run < runs + 1; run++) {
      const plain = await timed(database, () =>
        submit(`chain ${run}`, {
          repoUrl: `file://${repo}`,
          steps: [0, 1, 2, 3].map((step) => ({
            name: `step ${step + 1}`,
            prompt: "go on",
            dependsOn: step === 0 ? [] : [step - 1],
          })),
        }),
      );
      const agents = await timed(database, () =>
        submit(`pipeline ${run}`, { repoUrl: `file://${repo}`, pipeline: fourSteps }),
      );
      // The first run of each warms the worker's connections and caches up.
      if (run === 0) continue;
      chain.push(plain.ms);
      pipeline.push(agents.ms);
      const costs = await stepCosts(database, agents.taskId, model, agents.firstRequest);
      beforeEngine.push(...costs.beforeEngine);
      afterEngine.push(...costs.afterEngine);
    }
  } finally {
    await worker.stop();
    await model.close();
  }
  return {
    chainPerStep: round(median(chain) / 4),
    pipelinePerStep: round(median(pipeline) / 4),
    overheadPerStep: round((median(pipeline) - median(chain)) / 4),
    claimToModel: round(median(beforeEngine)),
    answerToNextClaim: round(median(afterEngine)),
  };
}

/** Submit → completed, and where the model's requests fell. */
async function timed(database, submitOne) {
  const started = performance.now();
  const wall = Date.now();
  const task = await submitOne();
  await taskDone(database, task.id, 120_000);
  return { ms: performance.now() - started, taskId: task.id, firstRequest: wall };
}

/**
 * For each step: from its claim to the model's first request (the checkout, the engine's start,
 * the prompt), and from its engine's last answer to the next step's claim (the changes collected,
 * the result stored, the next released and claimed).
 */
async function stepCosts(database, taskId, model, since) {
  const steps = await readSteps(database.pool, taskId);
  const requests = model.requests
    .map((request) => performance.timeOrigin + request.receivedAt)
    .filter((at) => at >= since);
  const responses = model.requests
    .map((request) => performance.timeOrigin + (request.respondedAt ?? request.receivedAt))
    .filter((at) => at >= since);
  const beforeEngine = [];
  const afterEngine = [];
  for (const [index, step] of steps.entries()) {
    const start = step.startedAt.getTime();
    const end = step.completedAt.getTime();
    const first = requests.find((at) => at >= start && at <= end);
    if (first !== undefined) beforeEngine.push(first - start);
    const next = steps[index + 1];
    const last = responses.filter((at) => at >= start && at <= end).at(-1);
    if (next !== undefined && last !== undefined) afterEngine.push(next.startedAt.getTime() - last);
  }
  return { beforeEngine, afterEngine };
}

async function measureAttempts(url, database, submit) {
  const figures = {};
  for (const size of [1, 3]) {
    const model = await startFakeLlm({
      script: {
        turns: [1, 2, 3]
          .flatMap((attempt) => [
            {
              when: `attempt ${attempt} of 3`,
              hang_ms: attemptModelSeconds * 1000,
              tool_calls: [
                { name: "write_file", arguments: { path: "greet.txt", contents: "hello world\n" } },
              ],
            },
            { when: `attempt ${attempt} of 3`, text: `Attempt ${attempt}.` },
          ])
          .concat([{ when: "You are the reviewer of", text: "RANKING: 1, 2, 3" }]),
      },
    });
    const workers = [];
    for (let index = 0; index < size; index++)
      workers.push(await startBenchWorker(url, `attempts${size}-${index}`, [], model));
    const repo = tempRepository({ "check.mjs": check });
    try {
      const started = performance.now();
      const task = await submit(`attempts with ${size}`, {
        repoUrl: `file://${repo}`,
        pipeline: { ...quickPipeline, verify: "node check.mjs" },
        attempts: 3,
      });
      const done = await taskDone(database, task.id, 300_000);
      if (done.ranking?.order.length !== 3)
        throw new Error(`the attempts were not all ranked: ${JSON.stringify(done.ranking)}`);
      figures[size === 1 ? "attemptsOneWorker" : "attemptsThreeWorkers"] = round(
        (performance.now() - started) / 1000,
        2,
      );
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
      await model.close();
    }
  }
  return figures;
}
