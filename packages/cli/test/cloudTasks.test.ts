import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cloudSchema } from "@lathe/cloud";
import { startFakeLlm } from "@lathe/testkit";
import { describe, expect, it } from "vitest";
import {
  answerOnly,
  clientHome,
  fleetForThisFile,
  lathe,
  stepsOf,
  taskReaches,
  writesFile,
} from "./cloudFleet.js";

const fleet = fleetForThisFile();

describe("cloud tasks on a real PostgreSQL with real lathe workers", () => {
  it("runs a task's steps in dependency order, each starting from the changes before it", async () => {
    const worker = await fleet().startWorker(
      [...writesFile("one.txt", "1\n"), ...writesFile("two.txt", "2\n"), ...writesFile("three.txt", "3\n")],
      { concurrency: 2 },
    );
    const repo = fleet().repository();
    const task = await fleet().submit("write one", {
      repoUrl: `file://${repo}`,
      steps: [
        { name: "first", prompt: "write one", dependsOn: [] },
        { name: "second", prompt: "write two", dependsOn: [0] },
        { name: "third", prompt: "write three", dependsOn: [1] },
      ],
    });
    const done = await taskReaches(fleet(), task.id, ["completed", "failed"]);
    expect(done.status).toBe("completed");
    const steps = await stepsOf(fleet(), task.id);
    expect(steps.map((step) => step.status)).toEqual(["completed", "completed", "completed"]);
    // Each started only after the one it depends on had completed.
    for (const [index, step] of steps.entries()) {
      const before = steps[index - 1];
      if (before === undefined) continue;
      expect(step.startedAt!.getTime()).toBeGreaterThanOrEqual(before.completedAt!.getTime());
    }
    expect(steps.map((step) => step.patch?.match(/^\+\+\+ b\/(.+)$/gm))).toEqual([
      ["+++ b/one.txt"],
      ["+++ b/two.txt"],
      ["+++ b/three.txt"],
    ]);
    expect(done.branch).toBe(`lathe/task-${task.id.slice(0, 8)}`);
    expect(done.patch?.match(/^\+\+\+ b\/(.+)$/gm)).toEqual([
      "+++ b/one.txt",
      "+++ b/three.txt",
      "+++ b/two.txt",
    ]);
    // Delivered as a branch on the task's repository, with one commit per step.
    const log = execFileSync("git", ["log", "--format=%s", done.branch!], { cwd: repo, encoding: "utf8" });
    expect(log.trim().split("\n")).toEqual([
      "write one (step 3)",
      "write one (step 2)",
      "write one (step 1)",
      "init",
    ]);
    expect(worker.model.requests).toHaveLength(6);
    worker.process.kill("SIGTERM");
    expect(await worker.exited).toBe(0);
  }, 120_000);

  it("claims queued steps by priority, highest first", async () => {
    const repo = fleet().repository();
    const priorities = [0, 5, 1, 9, 3];
    const tasks = [];
    for (const priority of priorities)
      tasks.push(await fleet().submit(`priority ${priority}`, { repoUrl: repo, priority }));
    const worker = await fleet().startWorker(priorities.map(() => answerOnly));
    for (const task of tasks) await taskReaches(fleet(), task.id, ["completed"]);
    const started = await Promise.all(
      tasks.map(async (task) => ({ task, step: (await stepsOf(fleet(), task.id))[0]! })),
    );
    const order = started
      .sort((a, b) => a.step.startedAt!.getTime() - b.step.startedAt!.getTime())
      .map(({ task }) => task.priority);
    expect(order).toEqual([9, 5, 3, 1, 0]);
    worker.process.kill("SIGTERM");
    expect(await worker.exited).toBe(0);
  }, 120_000);

  it("submits a local repository as a bundle and applies the task's patch behind a checkpoint", async () => {
    const worker = await fleet().startWorker(writesFile("result.txt", "done by the fleet\n"));
    const home = clientHome();
    const project = fleet().repository({ "a.txt": "first\n" });
    const submitted = await lathe(
      ["cloud", "submit", "write result.txt", "--database", fleet().url, "--json"],
      {
        home,
        cwd: project,
      },
    );
    expect(submitted.code, submitted.stderr).toBe(0);
    const { id } = JSON.parse(submitted.stdout) as { id: string };
    const watched = await lathe(["cloud", "watch", id.slice(0, 8), "--database", fleet().url], {
      home,
      cwd: project,
    });
    expect(watched.code, watched.stderr).toBe(0);
    expect(watched.stdout).toContain("→ write_file");
    expect(watched.stdout.trimEnd().split("\n").at(-1)).toMatch(/#\d+\s+completed$/);
    const applied = await lathe(["cloud", "apply", id, "--database", fleet().url], { home, cwd: project });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toMatch(
      /^Applied task [0-9a-f]{8} \(1 file, \+1 −0\)\. Undo with: lathe checkpoints restore (\S+)\n$/,
    );
    expect(readFileSync(join(project, "result.txt"), "utf8")).toBe("done by the fleet\n");
    const undo = applied.stdout.match(/restore (\S+)\n$/)?.[1] ?? "";
    const restored = await lathe(["checkpoints", "restore", undo], { home, cwd: project });
    expect(restored.code, restored.stderr).toBe(0);
    expect(() => readFileSync(join(project, "result.txt"), "utf8")).toThrow();
    worker.process.kill("SIGTERM");
    expect(await worker.exited).toBe(0);
  }, 120_000);

  it("routes a task by what it needs: keeps one with secrets here unless told, runs it here with --local", async () => {
    const home = clientHome();
    const project = fleet().repository({ "a.txt": "first\n", ".env": "TOKEN=1\n" });
    const tasks = async () =>
      Number((await fleet().database.pool.query(`SELECT count(*) FROM ${cloudSchema}.tasks`)).rows[0]?.count);
    const before = await tasks();
    const kept = await lathe(["cloud", "submit", "add a readme", "--database", fleet().url], {
      home,
      cwd: project,
    });
    expect(kept.code).toBe(2);
    expect(kept.stderr).toBe(
      "lathe cloud: not sent. Sensitive files would leave this machine (.env), so the task runs locally; --cloud sends them anyway.\n" +
        '  Run it here with `lathe cloud submit --local "…"` (or lathe -p), or send it anyway with --cloud.\n',
    );
    expect(await tasks()).toBe(before);

    const sent = await lathe(
      ["cloud", "submit", "add a readme", "--cloud", "--json", "--database", fleet().url],
      {
        home,
        cwd: project,
      },
    );
    expect(sent.code, sent.stderr).toBe(0);
    expect(JSON.parse(sent.stdout)).toMatchObject({
      status: "queued",
      route: "cloud",
      reason: "--cloud given: runs on the fleet.",
    });
    expect(await tasks()).toBe(before + 1);

    // --local: the task runs here and now, as a headless run on this machine's model.
    const model = await startFakeLlm({ script: { turns: writesFile("README.md", "# here\n") } });
    try {
      writeFileSync(
        join(home, "settings.json"),
        JSON.stringify({
          model: "openai:gpt-4.1",
          baseUrls: { openai: `${model.url}/v1` },
          approvalMode: "auto_edit",
        }),
      );
      // No task database is needed for it (this one does not answer).
      const here = await lathe(
        ["cloud", "submit", "add a readme", "--local", "--database", "postgres://lathe@127.0.0.1:1/postgres"],
        { home, cwd: project },
      );
      expect(here.code, here.stderr).toBe(0);
      expect(readFileSync(join(project, "README.md"), "utf8")).toBe("# here\n");
      expect(await tasks()).toBe(before + 1);
    } finally {
      await model.close();
    }
  }, 120_000);
});
