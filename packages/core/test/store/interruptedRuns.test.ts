import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SessionStore } from "../../src/store/index.js";
import { migrations } from "../../src/store/migrations.js";
import { createStoreTestBed, eventStamper, message, type StoreTestBed, t0 } from "./storeTestBed.js";

const sessionId = "0197a1b2-0000-7000-8000-00000000000a";
const firstRun = "0197a1b2-0000-7000-8000-0000000000b1";
const secondRun = "0197a1b2-0000-7000-8000-0000000000b2";
const model = "openai:gpt-4.1";

let bed: StoreTestBed;
let children: ChildProcess[] = [];
beforeEach(() => {
  bed = createStoreTestBed();
});
afterEach(() => {
  for (const child of children) child.kill("SIGKILL");
  children = [];
  bed.cleanup();
});

/** Start time of a process in clock ticks after boot, read here independently of the store. */
function startTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
}

async function runningProcess(): Promise<ChildProcess & { pid: number }> {
  const child = spawn("sleep", ["30"], { stdio: "ignore" });
  children.push(child);
  await new Promise((resolve) => child.once("spawn", resolve));
  return child as ChildProcess & { pid: number };
}

/** A real process that has ended and been reaped: its pid and its start time while it ran. */
async function endedProcess(): Promise<{ pid: number; ticks: number }> {
  const child = await runningProcess();
  const ticks = startTicks(child.pid);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
  return { pid: child.pid, ticks };
}

/**
 * A session with one run started by this process: a tool call that ended at t0 + 900 and an
 * assistant message at t0 + 1500; nothing says how the run ended.
 */
function startedRun() {
  const store = bed.open();
  store.ensureSession({ id: sessionId, projectRoot: "/work/app", mode: "agent", model });
  store.appendMessage(message(sessionId, "user", [{ type: "text", text: "Fix the test" }], t0));
  const stamp = eventStamper(sessionId, firstRun);
  const call = { callId: "call-1", name: "read_file" };
  store.recordEvent(stamp({ type: "run_start", mode: "agent", model, prompt: "Fix the test" }, t0));
  store.recordEvent(stamp({ type: "tool_call_ready", ...call, arguments: { path: "a.ts" } }, t0 + 200));
  store.recordEvent(stamp({ type: "tool_call_state", ...call, state: "success" }, t0 + 900));
  store.appendMessage(message(sessionId, "assistant", [{ type: "text", text: "Reading it." }], t0 + 1500));
  return store;
}

function setOwner(store: { db: DatabaseSync }, owner: { pid: number | null; ticks: number | null }): void {
  store.db
    .prepare("UPDATE runs SET owner_pid = ?, owner_start_ticks = ? WHERE id = ?")
    .run(owner.pid, owner.ticks, firstRun);
}

describe("runs whose process is gone", () => {
  it("records this process as the owner of the runs it starts, and leaves them running while it lives", () => {
    startedRun();
    const owner = bed.open().db.prepare("SELECT owner_pid, owner_start_ticks FROM runs").get();
    expect(owner).toEqual({
      owner_pid: process.pid,
      owner_start_ticks: process.platform === "linux" ? startTicks(process.pid) : null,
    });
    const [run] = bed.open().runs(sessionId);
    expect(run).toMatchObject({ id: firstRun, status: "running", endedAt: undefined, durationMs: undefined });
  });

  it("marks a run interrupted on open once its process has ended, ending at its last recorded moment", async () => {
    const store = startedRun();
    const gone = await endedProcess();
    setOwner(store, { pid: gone.pid, ticks: gone.ticks });
    const [run] = bed.open().runs(sessionId);
    expect(run).toMatchObject({ status: "interrupted", startedAt: t0, endedAt: t0 + 1500, durationMs: 1500 });
  });

  it.runIf(process.platform === "linux")("tells a reused pid from the owner by its start time", async () => {
    const store = startedRun();
    const other = await runningProcess();
    setOwner(store, { pid: other.pid, ticks: startTicks(other.pid) });
    expect(bed.open().runs(sessionId)[0]?.status).toBe("running");
    setOwner(store, { pid: other.pid, ticks: startTicks(other.pid) - 1 });
    expect(bed.open().runs(sessionId)[0]?.status).toBe("interrupted");
  });

  it("counts a run with no owner recorded (a Lathe from before owners were kept) as interrupted", () => {
    const store = startedRun();
    setOwner(store, { pid: null, ticks: null });
    expect(bed.open().runs(sessionId)[0]).toMatchObject({ status: "interrupted", endedAt: t0 + 1500 });
  });

  it("ends a killed run before the next run of the session, not at that run's messages", async () => {
    const store = startedRun();
    const stamp = eventStamper(sessionId, secondRun);
    store.appendMessage(message(sessionId, "user", [{ type: "text", text: "Go on" }], t0 + 60_000));
    store.recordEvent(stamp({ type: "run_start", mode: "agent", model, prompt: "Go on" }, t0 + 60_000));
    store.appendMessage(message(sessionId, "assistant", [{ type: "text", text: "Done." }], t0 + 61_000));
    store.recordEvent(
      stamp(
        {
          type: "run_complete",
          reason: "completed",
          iterations: 1,
          final: "Done.",
          usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0, costUsd: 0 },
          durationMs: 1000,
        },
        t0 + 61_000,
      ),
    );
    setOwner(store, { pid: null, ticks: null });
    const runs = bed.open().runs(sessionId);
    expect(runs.map((run) => [run.status, run.endedAt])).toEqual([
      ["interrupted", t0 + 1500],
      ["completed", t0 + 61_000],
    ]);
  });

  it("lets the owner's own end of the run stand over a mark made while it still ran", () => {
    const store = startedRun();
    setOwner(store, { pid: null, ticks: null });
    expect(bed.open().runs(sessionId)[0]?.status).toBe("interrupted");
    const stamp = eventStamper(sessionId, firstRun);
    store.recordEvent(
      stamp(
        {
          type: "run_complete",
          reason: "cancelled",
          iterations: 2,
          final: "",
          usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0, costUsd: 0 },
          durationMs: 2000,
        },
        t0 + 2000,
      ),
    );
    expect(bed.open().runs(sessionId)[0]).toMatchObject({ status: "cancelled", endedAt: t0 + 2000 });
  });

  it("marks the running runs of a database made before owners were kept when it is first opened", () => {
    const oldPath = join(bed.dir, "old.db");
    const old = new DatabaseSync(oldPath);
    for (const sql of migrations.slice(0, 2)) old.exec(sql);
    old.exec(`PRAGMA user_version = 2;
      INSERT INTO projects (id, root, created_at) VALUES ('p', '/work/app', ${t0});
      INSERT INTO sessions (id, project_id, mode, model, created_at, updated_at)
        VALUES ('${sessionId}', 'p', 'agent', '${model}', ${t0}, ${t0});
      INSERT INTO runs (id, session_id, prompt, mode, model, started_at)
        VALUES ('${firstRun}', '${sessionId}', 'Fix the test', 'agent', '${model}', ${t0});`);
    old.close();
    const opened = SessionStore.open(oldPath);
    if (!opened.ok) throw new Error(opened.error.message);
    expect(opened.value.runs(sessionId)[0]).toMatchObject({
      status: "interrupted",
      endedAt: t0,
      durationMs: 0,
    });
    opened.value.close();
  });
});
