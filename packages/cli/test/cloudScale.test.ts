import { cloudSchema } from "@lathe/cloud";
import { describe, expect, it } from "vitest";
import { answerOnly, type FleetWorker, fleetForThisFile, until } from "./cloudFleet.js";

const fleet = fleetForThisFile();

const taskCount = 200;

describe("a fleet of three workers", () => {
  it("completes 200 tasks, each exactly once", async () => {
    const repo = fleet().repository();
    const tasks = [];
    for (let index = 0; index < taskCount; index++)
      tasks.push(await fleet().submit(`task ${index}`, { repoUrl: `file://${repo}` }));
    const workers: FleetWorker[] = [];
    // Any worker may take any number of the tasks: each has a turn for every one.
    for (let index = 0; index < 3; index++)
      workers.push(await fleet().startWorker(tasks.map(() => answerOnly)));
    const pool = fleet().database.pool;
    const countDone = async () =>
      Number(
        (
          await pool.query<{ count: string }>(
            `SELECT count(*) FROM ${cloudSchema}.tasks WHERE status IN ('completed', 'failed', 'cancelled')`,
          )
        ).rows[0]?.count,
      );
    await until(
      async () => (await countDone()) === taskCount,
      "every task to finish",
      240_000,
      () => workers.map((worker) => worker.output()).join("\n"),
    );
    const statuses = await pool.query<{ status: string; count: string }>(
      `SELECT status, count(*) FROM ${cloudSchema}.tasks GROUP BY status`,
    );
    expect(statuses.rows.map((row) => [row.status, Number(row.count)])).toEqual([["completed", taskCount]]);
    // Each step started once, on one worker, at its first attempt, and delivered one result.
    const perTask = await pool.query<{
      started: string;
      results: string;
      attempt: number;
      worker_id: string;
    }>(
      `SELECT (SELECT count(*) FROM ${cloudSchema}.events e WHERE e.task_id = s.task_id AND e.kind = 'step') AS started,
              (SELECT count(*) FROM ${cloudSchema}.events e WHERE e.task_id = s.task_id AND e.kind = 'result') AS results,
              s.attempt, s.worker_id
         FROM ${cloudSchema}.steps s`,
    );
    expect(perTask.rows).toHaveLength(taskCount);
    expect(perTask.rows.every((row) => row.started === "1" && row.results === "1" && row.attempt === 0)).toBe(
      true,
    );
    // One model request per task, across the three scripted models; all three workers took some.
    const requests = workers.map((worker) => worker.model.requests.length);
    expect(requests.reduce((sum, count) => sum + count, 0)).toBe(taskCount);
    const byWorker = new Map<string, number>();
    for (const row of perTask.rows) byWorker.set(row.worker_id, (byWorker.get(row.worker_id) ?? 0) + 1);
    expect(workers.map((worker) => byWorker.get(worker.deviceId))).toEqual(requests);
    expect(requests.every((count) => count > 0)).toBe(true);
    // pg-boss agrees: every job completed (a worker completes its job just after it stores the
    // step's result), none failed, none dead-lettered.
    const jobStates = () =>
      pool.query<{ name: string; state: string; count: string }>(
        `SELECT name, state, count(*) FROM lathe_boss.job GROUP BY name, state`,
      );
    await until(
      async () => (await jobStates()).rows.length === 1,
      "pg-boss to complete the last jobs",
      10_000,
    );
    const jobs = await jobStates();
    expect(jobs.rows.map((row) => [row.name, row.state, Number(row.count)])).toEqual([
      ["lathe-steps", "completed", taskCount],
    ]);
  }, 300_000);
});
