import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cloudSchema, deadStepQueue, eventsAfter, stepQueue, type TaskEvent } from "@lathe/cloud";
import type { FakeTurn } from "@lathe/testkit";
import { afterAll, describe, expect, it } from "vitest";
import {
  answerOnly,
  clientHome,
  type Fleet,
  fleetForThisFile,
  lathe,
  processesIn,
  stepsOf,
  taskReaches,
  until,
} from "./cloudFleet.js";

const fleet = fleetForThisFile();

const plainFolders: string[] = [];

afterAll(async () => {
  await Promise.all(plainFolders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
}, 60_000);

/** A model error no retry inside the engine mends (a 400), so the attempt fails. */
const scriptedFailure: FakeTurn = { error: { status: 400, message: "scripted failure" } };

async function eventsOf(taskId: string): Promise<TaskEvent[]> {
  return eventsAfter(fleet().database.pool, taskId, 0);
}

async function taskRows(): Promise<number> {
  const counted = await fleet().database.pool.query<{ count: string }>(
    `SELECT count(*) AS count FROM ${cloudSchema}.tasks`,
  );
  return Number(counted.rows[0]?.count);
}

/** When no process works in `folder` any more (polled every 10 ms, for at most 30 s). */
async function whenNoProcessesIn(folder: string): Promise<number> {
  const deadline = Date.now() + 30_000;
  while (processesIn(folder).length > 0 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 10));
  return Date.now();
}

/** `lathe cloud …` against the fleet's database, from a client of its own. */
function cloud(args: string[], options: { home?: string; cwd?: string } = {}) {
  const home = options.home ?? clientHome();
  return lathe(["cloud", ...args, "--database", fleet().url], { home, cwd: options.cwd });
}

describe("cloud task failures on a real PostgreSQL with real lathe workers", () => {
  it("stops a running step's processes within a second of `lathe cloud cancel`", async () => {
    const worker = await fleet().startWorker([{ hang_ms: 120_000, text: "too late" }]);
    const task = await fleet().submit("wait on the model", { repoUrl: `file://${fleet().repository()}` });
    const id = task.id.slice(0, 8);
    const checkouts = join(worker.home, "worktrees", worker.deviceId);
    await until(
      async () =>
        (await stepsOf(fleet(), task.id))[0]?.status === "running" &&
        worker.model.requests.length === 1 &&
        processesIn(checkouts).length > 0,
      "the step's engine waiting on the model",
      30_000,
      worker.output,
    );

    // Watched from before the cancel is sent, so the moment the processes end is known however
    // the command's own exit (pg-boss stopping) compares with it.
    const gone = whenNoProcessesIn(checkouts);
    const cancelled = await cloud(["cancel", id, "--device", "laptop"]);
    const returnedAt = Date.now();
    const goneAt = await gone;
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.stdout).toBe(`Task ${id} cancelled (cancelled).\n`);
    expect(Math.max(0, goneAt - returnedAt)).toBeLessThan(1_000);
    // And from the cancel itself (its event's time: the transaction's start, before the commit).
    const cancels = (await eventsOf(task.id)).filter((event) => event.kind === "cancel");
    expect(cancels.map((event) => [event.stepIndex, event.message, event.deviceId])).toEqual([
      [0, "step 1 cancelled", "laptop"],
    ]);
    const cancelledAt = cancels[0]?.createdAt.getTime() ?? 0;
    expect(goneAt - cancelledAt).toBeLessThan(1_000);

    const [step] = await stepsOf(fleet(), task.id);
    expect((await taskReaches(fleet(), task.id, ["cancelled"])).status).toBe("cancelled");
    expect(step?.status).toBe("cancelled");
    const job = await fleet().queue.getJobById(stepQueue, step?.id ?? "");
    expect(job?.state).toBe("cancelled");

    const again = await cloud(["cancel", id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`Task ${task.id} is cancelled already. [E_TASK_STATE]`);
    // The worker took no harm: it stops cleanly.
    worker.process.kill("SIGTERM");
    expect(await worker.exited).toBe(0);
  }, 120_000);

  it("retries a failing step with growing backoff, dead-letters it with its error, and runs it again on `retry`", async () => {
    const failing = await fleet().startWorker([scriptedFailure, scriptedFailure, scriptedFailure]);
    const task = await fleet().submit("fail three times", {
      repoUrl: `file://${fleet().repository()}`,
      maxRetries: 2,
    });
    const id = task.id.slice(0, 8);
    const failed = await taskReaches(fleet(), task.id, ["failed", "completed"], 90_000);
    expect(failed.status).toBe("failed");
    const [step] = await stepsOf(fleet(), task.id);
    expect(step?.status).toBe("failed");
    expect(step?.attempt).toBe(2);
    expect(failing.model.requests).toHaveLength(3);

    const events = await eventsOf(task.id);
    const started = events.filter((event) => event.kind === "step");
    expect(started.map((event) => event.message)).toEqual([
      `step 1 started on ${failing.deviceId}`,
      `step 1 started on ${failing.deviceId} (attempt 2)`,
      `step 1 started on ${failing.deviceId} (attempt 3)`,
    ]);
    // pg-boss's backoff with retryDelay 1: 1–2 s before the second attempt, 2–4 s before the third.
    const times = started.map((event) => event.createdAt.getTime());
    const gaps = times.slice(1).map((time, index) => time - (times[index] ?? time));
    expect(gaps[0]).toBeGreaterThanOrEqual(900);
    expect(gaps[1]).toBeGreaterThanOrEqual(1_900);
    const outcomes = events.filter((event) => event.kind === "retry" || event.kind === "error");
    expect(outcomes.map((event) => [event.kind, event.level, event.message])).toEqual([
      ["retry", "warn", expect.stringMatching(/^attempt 1 failed: .+; queued again$/s)],
      ["retry", "warn", expect.stringMatching(/^attempt 2 failed: .+; queued again$/s)],
      ["error", "error", expect.stringMatching(/^step 1 failed after 3 attempts: .+/s)],
    ]);
    expect(step?.error).toEqual(failed.error);
    // The engine's result names what went wrong (E_LLM_ERROR, the provider's message); the step's
    // error and its events must carry it, or a dead-lettered task says nothing about why. Soft, so
    // the dead letter and the retry below are checked whatever this says.
    expect.soft(failed.error).toMatchObject({
      code: "E_LLM_ERROR",
      message: expect.stringContaining("scripted failure"),
    });
    for (const event of outcomes) expect.soft(event.message).toContain("scripted failure");

    // The job's last failure moves a copy to the dead-letter queue (right after the step is marked).
    let dead: Awaited<ReturnType<Fleet["queue"]["findJobs"]>> = [];
    await until(async () => {
      dead = await fleet().queue.findJobs(deadStepQueue, { data: { taskId: task.id } });
      return dead.length > 0;
    }, "the dead-lettered job");
    expect(dead).toHaveLength(1);
    expect(dead[0]?.data).toEqual({ taskId: task.id, stepIndex: 0 });
    const job = await fleet().queue.getJobById(stepQueue, step?.id ?? "");
    expect([job?.state, job?.retryCount]).toEqual(["failed", 2]);

    failing.process.kill("SIGTERM");
    expect(await failing.exited).toBe(0);
    const retried = await cloud(["retry", id]);
    expect(retried.code, retried.stderr).toBe(0);
    expect(retried.stdout).toBe(`Task ${id} queued again (queued).\n`);
    // The new run replaces the old job; its dead-lettered copy is gone.
    expect(await fleet().queue.findJobs(deadStepQueue, { data: { taskId: task.id } })).toEqual([]);
    const fresh = await fleet().startWorker([answerOnly]);
    const done = await taskReaches(fleet(), task.id, ["completed", "failed"]);
    expect(done.status).toBe("completed");
    expect(done.error).toBeNull();
    const [again] = await stepsOf(fleet(), task.id);
    expect([again?.status, again?.attempt, again?.error, again?.workerId]).toEqual([
      "completed",
      0,
      null,
      fresh.deviceId,
    ]);
    const afterRetry = (await eventsOf(task.id)).slice(events.length);
    expect(afterRetry.filter((event) => event.kind === "step").map((event) => event.message)).toEqual([
      `step 1 started on ${fresh.deviceId}`,
    ]);
    expect(fresh.model.requests).toHaveLength(1);
  }, 180_000);

  it("pauses a step on an approval nobody at the worker can give, and resumes it on an answer from another device", async () => {
    // `echo hi > out.txt` runs unasked under auto_edit (medium risk); ask_first asks about it.
    const worker = await fleet().startWorker([
      { tool_calls: [{ name: "run_terminal_cmd", arguments: { command: "echo hi > out.txt" } }] },
      { text: "Wrote out.txt." },
    ]);
    const task = await fleet().submit("write hi to out.txt", {
      repoUrl: `file://${fleet().repository()}`,
      approvalMode: "ask_first",
    });
    const id = task.id.slice(0, 8);
    const home = clientHome();
    const waiting = await taskReaches(fleet(), task.id, ["needs_input", "failed", "completed"]);
    expect(waiting.status).toBe("needs_input");
    const shown = await cloud(["show", id], { home });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`  1. task: needs_input on ${worker.deviceId}\n`);
    expect(shown.stdout).toMatch(/\n {5}waiting: allow run_terminal_cmd\? \S.*\n/);
    expect(shown.stdout).toContain(`\n     answer with: lathe cloud answer ${id} --allow | --deny\n`);

    const answered = await cloud(["answer", id, "--allow", "--device", "phone"], { home });
    expect(answered.code, answered.stderr).toBe(0);
    expect(answered.stdout).toBe(`Task ${id} step 1: allowed.\n`);
    const done = await taskReaches(fleet(), task.id, ["completed", "failed"]);
    expect(done.status, JSON.stringify(done.error)).toBe("completed");
    const events = await eventsOf(task.id);
    const exchange = events.filter((event) => event.kind === "question" || event.kind === "answer");
    expect(exchange.map((event) => [event.kind, event.deviceId])).toEqual([
      ["question", worker.deviceId],
      ["answer", "phone"],
    ]);
    expect(exchange[0]?.message).toMatch(/^needs an answer: allow run_terminal_cmd\? /);
    expect(exchange[1]?.message).toBe("allowed");
    expect(done.patch).toContain("+++ b/out.txt\n");
    expect(done.patch).toMatch(/\n\+hi\n/);
    expect(worker.model.requests).toHaveLength(2);
    // Both devices are on record: the worker and the phone that answered.
    const devices = await fleet().database.pool.query<{ id: string; kind: string }>(
      "SELECT id, kind FROM lathe_cloud.devices WHERE id = ANY($1) ORDER BY id",
      [["phone", worker.deviceId]],
    );
    expect(devices.rows.map((row) => [row.id, row.kind])).toEqual(
      [
        ["phone", "client"],
        [worker.deviceId, "worker"],
      ].sort(),
    );

    const late = await cloud(["answer", id, "--allow"], { home });
    expect(late.code).toBe(1);
    expect(late.stderr).toContain(`Task ${task.id} is not waiting for an answer. [E_TASK_STATE]`);
  }, 120_000);
});

describe("bad input: a coded error, and nothing half-written", () => {
  it("says which database could not be used, for `cloud` and `worker` alike", async () => {
    const home = clientHome();
    const before = await taskRows();
    const unreachable = await lathe(
      ["cloud", "submit", "write a.txt", "--database", "postgres://lathe@127.0.0.1:1/postgres"],
      { home },
    );
    expect(unreachable.code).toBe(1);
    expect(unreachable.stdout).toBe("");
    expect(unreachable.stderr).toMatch(
      /^lathe cloud: No answer from the task database at .*\[E_CLOUD_UNREACHABLE\]\n/,
    );

    for (const url of ["http://x", "not a url"]) {
      const wrong = await lathe(["cloud", "list", "--database", url], { home });
      expect(wrong.code, url).toBe(1);
      expect(wrong.stderr, url).toMatch(/\[E_CLOUD_URL\]\n/);
    }

    const noSuchDatabase = new URL(fleet().url);
    noSuchDatabase.pathname = "/nosuchdb";
    const missing = await lathe(["cloud", "submit", "write a.txt", "--database", noSuchDatabase.toString()], {
      home,
    });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/refused the connection: .*"nosuchdb".*\[E_CLOUD_URL\]\n/);

    const worker = await lathe(
      ["worker", "--database", "postgres://lathe@127.0.0.1:1/postgres", "--device", "nowhere"],
      { home },
    );
    expect(worker.code).toBe(1);
    expect(worker.stderr).toMatch(
      /^lathe worker: No answer from the task database at .*\[E_CLOUD_UNREACHABLE\]\n/,
    );
    expect(await taskRows()).toBe(before);
  }, 60_000);

  it("fails a task whose repository cannot be cloned at once, without retries", async () => {
    const worker = await fleet().startWorker([answerOnly]);
    const task = await fleet().submit("clone nothing", {
      repoUrl: "file:///nonexistent/repo",
      maxRetries: 2,
    });
    const failed = await taskReaches(fleet(), task.id, ["failed", "completed"]);
    expect(failed.status).toBe("failed");
    const [step] = await stepsOf(fleet(), task.id);
    expect(step?.status).toBe("failed");
    expect(step?.attempt).toBe(0);
    expect((step?.error as { code?: string }).code).toBe("E_REPO_UNAVAILABLE");
    expect((failed.error as { code?: string }).code).toBe("E_REPO_UNAVAILABLE");
    const events = await eventsOf(task.id);
    expect(events.filter((event) => event.kind === "retry")).toEqual([]);
    expect(events.filter((event) => event.kind === "error").map((event) => event.message)).toEqual([
      expect.stringMatching(/^step 1 failed: git could not clone file:\/\/\/nonexistent\/repo/),
    ]);
    // The job ends there, not retried: failed, and dead-lettered at once with its error, where
    // whoever watches the dead letters sees it; the engine never started.
    await until(
      async () => (await fleet().queue.getJobById(stepQueue, step?.id ?? ""))?.state === "failed",
      "the job to end",
    );
    const job = await fleet().queue.getJobById(stepQueue, step?.id ?? "");
    expect(job?.retryCount).toBe(0);
    const dead = await fleet().queue.findJobs(deadStepQueue, { data: { taskId: task.id } });
    expect(dead.map((each) => each.data)).toEqual([{ taskId: task.id, stepIndex: 0 }]);
    expect(worker.model.requests).toHaveLength(0);
  }, 60_000);

  it("refuses a task whose row asks for yolo: dead-lettered before any checkout or model request", async () => {
    const worker = await fleet().startWorker([answerOnly]);
    const task = await fleet().submit("anything goes", {
      repoUrl: `file://${fleet().repository()}`,
      approvalMode: "yolo",
    });
    const failed = await taskReaches(fleet(), task.id, ["failed", "completed"]);
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatchObject({ code: "E_SECURITY_BLOCKED" });
    const events = await eventsOf(task.id);
    expect(events.some((event) => event.message.startsWith("checkout ready"))).toBe(false);
    expect(worker.model.requests).toHaveLength(0);
    await until(
      async () => (await fleet().queue.findJobs(deadStepQueue, { data: { taskId: task.id } })).length === 1,
      "the refused step in the dead-letter queue",
    );
  }, 60_000);

  it("refuses to submit a folder that is not a repository, or a bundle over the cap, storing nothing", async () => {
    const home = clientHome();
    const before = await taskRows();
    const plain = mkdtempSync(join(tmpdir(), "lathe-plain-folder-"));
    plainFolders.push(plain);
    writeFileSync(join(plain, "a.txt"), "not in git\n");
    const notGit = await cloud(["submit", "write result.txt", "--repo", plain], { home });
    expect(notGit.code).toBe(1);
    expect(notGit.stdout).toBe("");
    expect(notGit.stderr).toMatch(/\[E_REPO_UNAVAILABLE\]\n/);

    const big = fleet().repository();
    writeFileSync(join(big, "big.bin"), randomBytes(2 * 1024 * 1024));
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "add", "big.bin"], { cwd: big });
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "big"], {
      cwd: big,
    });
    const tooLarge = await cloud(["submit", "write result.txt", "--bundle-cap", "1"], { home, cwd: big });
    expect(tooLarge.code).toBe(1);
    expect(tooLarge.stdout).toBe("");
    expect(tooLarge.stderr).toMatch(/ is 2\.\d MB, over the 1\.0 MB cap\. \[E_BUNDLE_TOO_LARGE\]\n/);
    expect(await taskRows()).toBe(before);
    const bundles = await fleet().database.pool.query(`SELECT 1 FROM ${cloudSchema}.bundles`);
    expect(bundles.rowCount).toBe(0);
  }, 60_000);

  it("says E_TASK_NOT_FOUND for an unknown or malformed id, and exit 2 for misuse", async () => {
    const home = clientHome();
    const unknown = await cloud(["show", "deadbeef"], { home });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^lathe cloud: No task deadbeef\. \[E_TASK_NOT_FOUND\]\n/);
    const malformed = await cloud(["show", "not-a-task!"], { home });
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toContain('No task "not-a-task!": a task id is hex');
    expect(malformed.stderr).toContain("[E_TASK_NOT_FOUND]\n");

    const undecided = await cloud(["answer", "deadbeef"], { home });
    expect(undecided.code).toBe(2);
    expect(undecided.stderr).toContain("answer needs --allow or --deny");
    const unknownCommand = await cloud(["frob"], { home });
    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.stderr).toContain('unknown command "frob"');
  }, 60_000);
});
