import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readlinkSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type CloudDatabase,
  openCloudDatabase,
  readSteps,
  readTask,
  startStepQueue,
  submitTask,
  type TaskRecord,
  type TaskSubmission,
} from "@lathe/cloud";
import {
  type FakeLlm,
  type FakeTurn,
  fakeKeys,
  startFakeLlm,
  startThrowawayPostgres,
  type ThrowawayPostgres,
} from "@lathe/testkit";
import type { PgBoss } from "pg-boss";
import { afterAll, afterEach, beforeAll } from "vitest";

export const latheCommand = fileURLToPath(new URL("../bin/lathe", import.meta.url));

/** A worker process of the fleet, on its own scripted model and its own $LATHE_HOME. */
export interface FleetWorker {
  deviceId: string;
  home: string;
  model: FakeLlm;
  process: ChildProcess;
  /** What it said on stderr so far. */
  output(): string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
}

/** A throwaway PostgreSQL, the database opened on it, and the workers a test starts. */
export interface Fleet {
  postgres: ThrowawayPostgres;
  url: string;
  database: CloudDatabase;
  queue: PgBoss;
  workers: FleetWorker[];
  /** A fresh git repository with one commit (a.txt), for tasks to clone by file:// URL. */
  repository(files?: Record<string, string>): string;
  startWorker(
    turns: FakeTurn[],
    options?: {
      deviceId?: string;
      home?: string;
      concurrency?: number;
      deviceOnly?: boolean;
      /** A model server shared with other workers (its turns served in the order asked). */
      model?: FakeLlm;
    },
  ): Promise<FleetWorker>;
  submit(prompt: string, options?: Partial<TaskSubmission>): Promise<TaskRecord>;
  /** Kills the workers still running (for afterEach: a failed test leaves none to the next). */
  stopWorkers(): Promise<void>;
  close(): Promise<void>;
}

const folders: string[] = [];

function tempFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  folders.push(folder);
  return folder;
}

/** The environment of every lathe the tests start: throwaway homes, the scripted key, no other. */
export function fleetEnvironment(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !/_API_KEY$|^LATHE_/.test(key)) env[key] = value;
  }
  return { ...env, HOME: home, LATHE_HOME: home, OPENAI_API_KEY: fakeKeys.openai };
}

export async function startFleet(): Promise<Fleet> {
  const postgres = await startThrowawayPostgres();
  const opened = await openCloudDatabase(postgres.url, { maxConnections: 6 });
  if (!opened.ok) throw new Error(opened.error.message);
  const database = opened.database;
  const queue = await startStepQueue({ url: postgres.url, supervise: false });
  const workers: FleetWorker[] = [];
  const fleet: Fleet = {
    postgres,
    url: postgres.url,
    database,
    queue,
    workers,
    repository(files = { "a.txt": "first\n" }) {
      const dir = tempFolder("lathe-fleet-repo-");
      for (const [path, contents] of Object.entries(files)) writeFileSync(join(dir, path), contents);
      const git = (...args: string[]) =>
        execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
          cwd: dir,
          stdio: "pipe",
        });
      git("init", "-q", "-b", "main");
      git("add", ".");
      git("commit", "-q", "-m", "init");
      return dir;
    },
    async startWorker(turns, options = {}) {
      const model = options.model ?? (await startFakeLlm({ script: { turns } }));
      const home = options.home ?? tempFolder("lathe-worker-home-");
      writeFileSync(
        join(home, "settings.json"),
        JSON.stringify({ model: "openai:gpt-4.1", baseUrls: { openai: `${model.url}/v1` } }),
      );
      const deviceId = options.deviceId ?? `worker-${workers.length + 1}`;
      const child = spawn(
        latheCommand,
        [
          "worker",
          "--database",
          postgres.url,
          "--device",
          deviceId,
          "--concurrency",
          String(options.concurrency ?? 1),
          "--grace",
          "2",
          ...(options.deviceOnly ? ["--device-only"] : []),
        ],
        { env: fleetEnvironment(home), stdio: ["ignore", "ignore", "pipe"] },
      );
      let said = "";
      child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
        said += chunk;
      });
      const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
      const worker: FleetWorker = { deviceId, home, model, process: child, output: () => said, exited };
      workers.push(worker);
      await until(
        () => said.includes("ready"),
        `${deviceId} ready`,
        20_000,
        () => said,
      );
      return worker;
    },
    async submit(prompt, options = {}) {
      const submitted = await submitTask(database.pool, queue, {
        owner: "tester",
        deviceId: "test",
        prompt,
        steps: [{ name: "task", prompt, dependsOn: [] }],
        approvalMode: "auto_edit",
        priority: 0,
        timeoutSeconds: 600,
        maxRetries: 2,
        route: { target: "cloud", reason: "test" },
        ...options,
      });
      if (!submitted.ok) throw new Error(submitted.error.message);
      return submitted.value;
    },
    async stopWorkers() {
      for (const worker of workers) worker.process.kill("SIGKILL");
      await Promise.all(workers.map((worker) => worker.exited));
      const models = new Set(workers.splice(0).map((worker) => worker.model));
      await Promise.all([...models].map((model) => model.close()));
    },
    async close() {
      await fleet.stopWorkers();
      await queue.stop({ graceful: false, timeout: 1_000 }).catch(() => undefined);
      await database.close();
      await postgres.remove();
      await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
    },
  };
  return fleet;
}

/** Polls until the check holds, up to a deadline; the message says what was awaited. */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 30_000,
  context?: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline)
      throw new Error(
        `Timed out after ${timeoutMs} ms waiting for ${what}${context ? `\n${context()}` : ""}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits for the task to reach one of the statuses and returns it. */
export async function taskReaches(
  fleet: Fleet,
  taskId: string,
  statuses: readonly string[],
  timeoutMs = 60_000,
): Promise<TaskRecord> {
  let task: TaskRecord | undefined;
  await until(
    async () => {
      task = await readTask(fleet.database.pool, taskId);
      return task !== undefined && statuses.includes(task.status);
    },
    `task ${taskId.slice(0, 8)} to be ${statuses.join(" or ")}`,
    timeoutMs,
    () => `last status: ${task?.status}; workers said:\n${fleet.workers.map((w) => w.output()).join("\n")}`,
  );
  return task as TaskRecord;
}

export async function stepsOf(fleet: Fleet, taskId: string) {
  return readSteps(fleet.database.pool, taskId);
}

/** The pids of processes whose working directory is inside `folder` (a worker's checkouts). */
export function processesIn(folder: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/cwd`).startsWith(folder)) found.push(Number(entry));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found;
}

/** A client's own $LATHE_HOME and project, for `lathe cloud …` commands. */
export function clientHome(): string {
  const home = tempFolder("lathe-client-home-");
  mkdirSync(join(home, "cloud"), { recursive: true });
  return home;
}

/** A lathe command running (`cloud watch`, say), its output collected as it comes. */
export interface RunningLathe {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
}

export function startLathe(args: string[], options: { home: string; cwd?: string }): RunningLathe {
  const child = spawn(latheCommand, args, {
    cwd: options.cwd ?? options.home,
    env: fleetEnvironment(options.home),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => {
    child.on("error", () => resolve(null));
    child.on("close", (code) => resolve(code));
  });
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

/** Runs `lathe cloud …` (or any lathe command) to the end. */
export async function lathe(
  args: string[],
  options: { home: string; cwd?: string },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const running = startLathe(args, options);
  const code = await running.exited;
  return { code, stdout: running.stdout(), stderr: running.stderr() };
}

/**
 * The fleet of a test file: one PostgreSQL started before its tests, the workers a test started
 * killed after it (a failed test leaves none to the next), everything removed at the end.
 */
export function fleetForThisFile(): () => Fleet {
  let fleet: Fleet | undefined;
  beforeAll(async () => {
    fleet = await startFleet();
  }, 60_000);
  afterEach(async () => {
    await fleet?.stopWorkers();
  });
  afterAll(async () => {
    await fleet?.close();
  }, 60_000);
  return () => {
    if (fleet === undefined) throw new Error("the fleet is not started yet");
    return fleet;
  };
}

/** A finished turn that changes nothing: one model request per task. */
export const answerOnly: FakeTurn = { text: "Nothing to change." };

/** Two turns: write a file, then say so. */
export function writesFile(path: string, contents: string): FakeTurn[] {
  return [
    { tool_calls: [{ name: "write_file", arguments: { path, contents } }] },
    { text: `Wrote ${path}.` },
  ];
}
