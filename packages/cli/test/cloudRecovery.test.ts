import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  appendEvent,
  cancelTask,
  eventsAfter,
  followTask,
  openCloudDatabase,
  readTask,
  type TaskEvent,
} from "@lathe/cloud";
import type { FakeTurn } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";
import {
  clientHome,
  fleetForThisFile,
  processesIn,
  startLathe,
  stepsOf,
  taskReaches,
  until,
  writesFile,
} from "./cloudFleet.js";

const fleet = fleetForThisFile();

/** What a test left running when it failed: its `watch` processes and its in-process feeds. */
const leftovers: (() => void)[] = [];

afterEach(async () => {
  for (const stop of leftovers.splice(0)) stop();
});

/** A lathe command running alongside the test (`cloud watch`), killed if the test fails. */
function runAlongside(args: string[], home: string) {
  const running = startLathe(args, { home });
  leftovers.push(() => running.child.kill("SIGKILL"));
  return running;
}

/** A signal that ends an in-process feed a failed test left following. */
function feedStopper(): AbortSignal {
  const stopper = new AbortController();
  leftovers.push(() => stopper.abort());
  return stopper.signal;
}

/** Polls through a database restart: a query refused while the server is down is a "not yet". */
async function untilAnswered(check: () => Promise<boolean>, what: string, timeoutMs = 60_000) {
  let lastError = "";
  await until(
    async () => {
      try {
        return await check();
      } catch (error) {
        lastError = error instanceof Error ? error.message : String(error);
        return false;
      }
    },
    what,
    timeoutMs,
    () =>
      `last error: ${lastError}\nworkers said:\n${fleet()
        .workers.map((w) => w.output())
        .join("\n")}`,
  );
}

async function allEvents(taskId: string): Promise<TaskEvent[]> {
  return eventsAfter(fleet().database.pool, taskId, 0);
}

/** 1, 2, … n. */
function oneTo(n: number): number[] {
  return Array.from({ length: n }, (_, index) => index + 1);
}

/** The `#seq` of every line `watch` printed (continuation lines of a message have none). */
function printedSeqs(stdout: string): number[] {
  return [...stdout.matchAll(/^\d\d:\d\d:\d\d {2}#(\d+)/gm)].map((match) => Number(match[1]));
}

describe("cloud tasks survive a worker killed and a database restarted", () => {
  it("gives a step whose worker was killed (SIGKILL) to the next worker, which finishes it once from a fresh checkout", async () => {
    const worker = await fleet().startWorker([{ hang_ms: 120_000, text: "never seen" }], { deviceId: "box" });
    const home = worker.home;
    const checkouts = join(home, "worktrees", "box");
    const task = await fleet().submit("fix it", { repoUrl: `file://${fleet().repository()}` });
    const checkout = join(checkouts, `${task.id}-0`);
    await until(
      async () =>
        (await stepsOf(fleet(), task.id))[0]?.status === "running" &&
        worker.model.requests.length === 1 &&
        processesIn(checkouts).length > 0 &&
        (await allEvents(task.id)).some((event) => event.message.startsWith("engine started")),
      "the step running on box, its engine waiting for the model",
      20_000,
      () => worker.output(),
    );
    // What the dead attempt leaves behind: the next one must not build on it.
    writeFileSync(join(checkout, "half-made.txt"), "half made\n");
    worker.process.kill("SIGKILL");
    await worker.exited;
    // The engine (a process group of its own, so the kill does not reach it) stops with the worker:
    // nothing goes on editing the checkout the next attempt will use.
    await until(
      () => processesIn(checkouts).length === 0,
      "the killed worker's engine to exit",
      5_000,
      () => `still there: ${processesIn(checkouts).join(" ")}`,
    );
    expect(existsSync(join(checkout, "half-made.txt"))).toBe(true);

    // The same machine comes back: same home, same device id, same folder of checkouts. The job is
    // given back once pg-boss sees its heartbeat stop (10 s), at its next monitor pass (every 2 s
    // as Lathe sets it; pg-boss's default of 60 s made this wait a minute).
    const again = await fleet().startWorker(writesFile("fixed.txt", "fixed\n"), { deviceId: "box", home });
    const done = await taskReaches(fleet(), task.id, ["completed", "failed"], 40_000);
    expect(done.status, again.output()).toBe("completed");
    const [step] = await stepsOf(fleet(), task.id);
    expect(step?.status).toBe("completed");
    expect(step?.attempt).toBe(1);
    expect(step?.workerId).toBe("box");
    const events = await allEvents(task.id);
    expect(events.map((event) => event.seq)).toEqual(oneTo(events.length));
    // A step silent for 30 s whose job pg-boss has given back is marked queued by a worker's
    // housekeeping, unless the next claim comes first: either way it is claimed once more.
    const lost = events.some((event) => event.kind === "retry");
    expect(events.map((event) => [event.kind, event.message])).toEqual([
      ["status", "queued (cloud: test)"],
      ["step", "step 1 started on box"],
      ["status", "running"],
      ["log", expect.stringMatching(/^checkout ready on /)],
      ["log", "engine started (openai:gpt-4.1)"],
      ...(lost
        ? [
            ["retry", "worker box lost; step queued again"],
            ["status", "queued"],
          ]
        : []),
      ["step", "step 1 started on box (attempt 2)"],
      ...(lost ? [["status", "running"]] : []),
      ["log", expect.stringMatching(/^checkout ready on /)],
      ["log", "engine started (openai:gpt-4.1)"],
      ["log", '→ write_file {"path":"fixed.txt","contents":"fixed\\n"}'],
      ["log", "← Created fixed.txt (1 line, 6 bytes)."],
      ["log", "Wrote fixed.txt."],
      ["log", "run ended: success"],
      ["result", "Wrote fixed.txt."],
      ["status", "completed"],
    ]);
    expect(done.patch?.match(/^\+\+\+ b\/(.+)$/gm)).toEqual(["+++ b/fixed.txt"]);
    expect(done.patch).not.toContain("half-made");
    // The checkout goes once the result is stored (the task is completed first).
    await until(() => !existsSync(checkout), "the finished step's checkout to be removed", 5_000);
    expect(worker.model.requests).toHaveLength(1);
    expect(again.model.requests).toHaveLength(2);
    const job = await fleet().queue.getJobById("lathe-steps", step?.id ?? "");
    expect(job?.state).toBe("completed");
    expect(job?.retryCount).toBe(1);
  }, 90_000);

  it("on SIGTERM, gives the steps still running after the grace back to the queue, and another worker finishes them", async () => {
    const leaving = await fleet().startWorker([{ hang_ms: 120_000, text: "never seen" }], {
      deviceId: "leaving",
    });
    const checkouts = join(leaving.home, "worktrees", "leaving");
    const task = await fleet().submit("fix it", { repoUrl: `file://${fleet().repository()}` });
    await until(
      async () =>
        (await stepsOf(fleet(), task.id))[0]?.status === "running" && processesIn(checkouts).length > 0,
      "the step running on the leaving worker",
      20_000,
      () => leaving.output(),
    );
    leaving.process.kill("SIGTERM");
    // The harness gives workers --grace 2: the step is stopped after 2 s, given back, and the
    // worker exits 0 with nothing of the step left running.
    expect(await leaving.exited).toBe(0);
    expect(processesIn(checkouts)).toEqual([]);
    expect(leaving.output()).toContain("SIGTERM: finishing the steps in hand (at most 2 s)");
    const [released] = await stepsOf(fleet(), task.id);
    expect([released?.status, released?.lease]).toEqual(["queued", null]);
    const staying = await fleet().startWorker(writesFile("fixed.txt", "fixed\n"), { deviceId: "staying" });
    const done = await taskReaches(fleet(), task.id, ["completed", "failed"], 30_000);
    expect(done.status).toBe("completed");
    const [step] = await stepsOf(fleet(), task.id);
    expect([step?.attempt, step?.workerId]).toEqual([1, "staying"]);
    const events = await allEvents(task.id);
    expect(
      events
        .filter((event) => ["step", "retry", "result"].includes(event.kind))
        .map((event) => event.message),
    ).toEqual([
      "step 1 started on leaving",
      "released by a worker shutting down; queued again",
      "step 1 started on staying (attempt 2)",
      "Wrote fixed.txt.",
    ]);
    expect(staying.model.requests).toHaveLength(2);
  }, 90_000);

  it("outlives a PostgreSQL restart mid-run: the worker and the watchers reconnect, and every log line is stored and shown once", async () => {
    const delayed = (turn: FakeTurn): FakeTurn => ({ hang_ms: 1_000, ...turn });
    const worker = await fleet().startWorker([
      delayed({ tool_calls: [{ name: "read_file", arguments: { path: "a.txt" } }] }),
      delayed({ tool_calls: [{ name: "write_file", arguments: { path: "b.txt", contents: "second\n" } }] }),
      delayed({ text: "Read a.txt and wrote b.txt." }),
    ]);
    const task = await fleet().submit("read and write", { repoUrl: `file://${fleet().repository()}` });
    const watch = runAlongside(["cloud", "watch", task.id, "--database", fleet().url], clientHome());
    // The same feed in this process: what `watch` is built on, seen without the command around it.
    const followed: TaskEvent[] = [];
    const connection: string[] = [];
    const following = followTask({
      pool: fleet().database.pool,
      url: fleet().url,
      taskId: task.id,
      afterSeq: 0,
      untilFinished: true,
      onEvent: (event) => followed.push(event),
      onConnection: (state) => connection.push(state),
      signal: feedStopper(),
    });
    await until(
      async () => (await allEvents(task.id)).some((event) => event.message.startsWith("engine started")),
      "the step's engine to start",
      20_000,
      () => worker.output(),
    );
    // The outage covers the run's tool calls: each turn waits 1 s, and the first just began.
    expect((await allEvents(task.id)).length).toBeLessThanOrEqual(6);
    await fleet().postgres.stop();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await fleet().postgres.start();

    await untilAnswered(
      async () => (await readTask(fleet().database.pool, task.id))?.status === "completed",
      "the task to complete after the restart",
    );
    const watched = await watch.exited;
    const followEnd = await following;
    const events = await allEvents(task.id);
    expect(events.map((event) => event.seq)).toEqual(oneTo(events.length));
    expect(events.map((event) => [event.kind, event.message])).toEqual([
      ["status", "queued (cloud: test)"],
      ["step", `step 1 started on ${worker.deviceId}`],
      ["status", "running"],
      ["log", expect.stringMatching(/^checkout ready on lathe\/task-[0-9a-f]{8} at [0-9a-f]{12}$/)],
      ["log", "engine started (openai:gpt-4.1)"],
      ["log", '→ read_file {"path":"a.txt"}'],
      ["log", "←      1|first"],
      ["log", '→ write_file {"path":"b.txt","contents":"second\\n"}'],
      ["log", "← Created b.txt (1 line, 7 bytes)."],
      ["log", "Read a.txt and wrote b.txt."],
      ["log", "run ended: success"],
      ["result", "Read a.txt and wrote b.txt."],
      ["status", "completed"],
    ]);
    const count = (prefix: string) => events.filter((event) => event.message.startsWith(prefix)).length;
    expect(count("→ read_file")).toBe(1);
    expect(count("→ write_file")).toBe(1);
    expect(count("Read a.txt and wrote b.txt.")).toBe(2);
    const [step] = await stepsOf(fleet(), task.id);
    expect(step?.attempt).toBe(0);
    const job = await fleet().queue.getJobById("lathe-steps", step?.id ?? "");
    expect(job?.state).toBe("completed");
    expect(job?.retryCount).toBe(0);
    // The worker's LISTEN connection says so once; its queue (pg-boss) says each error it meets.
    expect(worker.output().match(/database connection lost/g)).toHaveLength(1);

    expect(watched, watch.stderr()).toBe(0);
    expect(printedSeqs(watch.stdout())).toEqual(oneTo(events.length));
    expect(watch.stderr()).toBe("lathe cloud: connection lost; reconnecting…\nlathe cloud: reconnected\n");
    expect(followEnd).toEqual({ lastSeq: events.length, finished: true });
    expect(followed.map((event) => event.seq)).toEqual(oneTo(events.length));
    expect(connection).toEqual(["lost", "back"]);
  }, 120_000);

  it("followTask delivers the events stored while its connection was down, once each, when it is back", async () => {
    // No worker: the task stays queued, and this test writes its events itself.
    const task = await fleet().submit("nobody runs this", { repoUrl: `file://${fleet().repository()}` });
    const followed: TaskEvent[] = [];
    const connection: string[] = [];
    const following = followTask({
      pool: fleet().database.pool,
      url: fleet().url,
      taskId: task.id,
      afterSeq: 0,
      untilFinished: true,
      onEvent: (event) => followed.push(event),
      onConnection: (state) => connection.push(state),
      signal: feedStopper(),
    });
    await until(() => followed.length === 1, "the stored event");
    // A database may not shut itself out: the gate is worked from another one.
    const opened = await openCloudDatabase(fleet().url.replace(/\/postgres$/, "/template1"), {
      migrate: false,
    });
    if (!opened.ok) throw new Error(opened.error.message);
    const gate = opened.database;
    const held = await fleet().database.pool.connect();
    try {
      // Nobody may connect now (the superuser neither), while the held connection still writes:
      // the feed's listener, cut off, can neither hear these events announced nor read them.
      await gate.pool.query("ALTER DATABASE postgres ALLOW_CONNECTIONS false");
      await held.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE application_name = 'lathe-listen' AND query LIKE 'LISTEN %' AND pid <> pg_backend_pid()`,
      );
      await until(() => connection.length > 0, "the feed to lose its connection", 10_000);
      for (const line of ["one", "two", "three"])
        await appendEvent(held, { taskId: task.id, kind: "log", message: `written while away: ${line}` });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(followed).toHaveLength(1);
    } finally {
      await gate.pool.query("ALTER DATABASE postgres ALLOW_CONNECTIONS true");
      await gate.close();
      held.release();
    }
    await until(() => followed.length === 4, "the events written while away", 10_000);
    const cancelled = await cancelTask(fleet().database.pool, fleet().queue, task.id, "test");
    expect(cancelled.ok).toBe(true);
    expect(await following).toEqual({ lastSeq: 6, finished: true });
    expect(followed.map((event) => [event.seq, event.kind, event.message])).toEqual([
      [1, "status", "queued (cloud: test)"],
      [2, "log", "written while away: one"],
      [3, "log", "written while away: two"],
      [4, "log", "written while away: three"],
      [5, "cancel", "step 1 cancelled"],
      [6, "status", "cancelled"],
    ]);
    expect(connection).toEqual(["lost", "back"]);
  }, 60_000);
});
