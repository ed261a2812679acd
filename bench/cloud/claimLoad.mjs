// 10,000 queued steps and 16 claimer processes: each claims through pg-boss's fetch (FOR UPDATE
// SKIP LOCKED) and the worker's own claim of the step (lease, event, task status), then completes
// the step and its job — the database's side of a large fleet, without an engine per step.
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { openCloudDatabase, startStepQueue, submitTask } from "../../packages/cloud/dist/index.js";
import { percentile } from "./figures.mjs";

const steps = 10_000;
const claimers = 16;
const submitters = 8;
const aloneClaims = 500;
const claimer = fileURLToPath(new URL("./claimer.mjs", import.meta.url));

export async function measureClaims(url) {
  const opened = await openCloudDatabase(url, { maxConnections: submitters + 1 });
  if (!opened.ok) throw new Error(opened.error.message);
  const database = opened.database;
  const queue = await startStepQueue({ url, supervise: false, maxConnections: submitters });
  try {
    let next = 0;
    const submitOne = async () => {
      while (next < steps) {
        const index = next++;
        await submitTask(database.pool, queue, {
          owner: "bench",
          deviceId: "bench",
          prompt: `queued ${index}`,
          steps: [{ name: "task", prompt: `queued ${index}`, dependsOn: [] }],
          repoUrl: "file:///nowhere",
          approvalMode: "auto_edit",
          priority: index % 10,
          timeoutSeconds: 600,
          maxRetries: 2,
          route: { target: "cloud", reason: "bench" },
        });
      }
    };
    await Promise.all(Array.from({ length: submitters }, submitOne));
    const queuedMb = await databaseMb(database);
    // A lone claimer first, for the claim's own cost; then the fleet, for what contention adds.
    const alone = (await runClaimer(url, "claimer-alone", aloneClaims)).latencies;
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: claimers }, (_, index) => runClaimer(url, `claimer-${index}`)),
    );
    const seconds = (performance.now() - started) / 1000;
    const latencies = results.flatMap((result) => result.latencies);
    const claimed = latencies.length + alone.length;
    if (claimed !== steps) throw new Error(`claimed ${claimed} of ${steps} steps`);
    await database.pool.query("VACUUM");
    return {
      steps,
      claimers,
      aloneClaims,
      aloneP50: percentile(alone, 50),
      aloneP95: percentile(alone, 95),
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      perSecond: Math.round(latencies.length / seconds),
      queuedMb,
      doneMb: await databaseMb(database),
    };
  } finally {
    await queue.stop({ graceful: false, timeout: 1_000 }).catch(() => undefined);
    await database.close();
  }
}

function runClaimer(url, deviceId, most) {
  return new Promise((resolve, reject) => {
    const args = [claimer, url, deviceId, ...(most === undefined ? [] : [String(most)])];
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      out += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`${deviceId} exited ${code}`)),
    );
  });
}

async function databaseMb(database) {
  const result = await database.pool.query("SELECT pg_database_size(current_database()) AS bytes");
  return Math.round((Number(result.rows[0].bytes) / 2 ** 20) * 10) / 10;
}
