import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FakeTurn, startFakeLlm } from "@lathe/testkit";
import { describe, expect, it } from "vitest";
import { clientHome, fleetForThisFile, lathe, stepsOf, taskReaches } from "./cloudFleet.js";

const fleet = fleetForThisFile();

/** The project's own check: greet.txt (not there yet) must say exactly "hello world". */
const project = {
  "check.mjs":
    'import { readFileSync } from "node:fs";\nprocess.exit(readFileSync("greet.txt", "utf8") === "hello world\\n" ? 0 : 1);\n',
};

const writes = (when: string, path: string, contents: string, said: string): FakeTurn[] => [
  { when, tool_calls: [{ name: "write_file", arguments: { path, contents } }] },
  { when, text: said },
];

/** A file the step's checkout has already (an earlier step wrote it) is read before it is rewritten. */
const rewrites = (when: string, path: string, contents: string, said: string): FakeTurn[] => [
  { when, tool_calls: [{ name: "read_file", arguments: { path } }] },
  ...writes(when, path, contents, said),
];

/** Two fleet workers on one scripted model: whichever claims a step, the script answers by role. */
async function twoWorkers(turns: FakeTurn[]) {
  const model = await startFakeLlm({ script: { turns } });
  await fleet().startWorker([], { model });
  await fleet().startWorker([], { model });
  return model;
}

async function submit(repo: string, args: string[]): Promise<string> {
  const home = clientHome();
  const submitted = await lathe(["cloud", "submit", "--database", fleet().url, ...args], { home, cwd: repo });
  expect(submitted.stderr).toContain("Queued for the fleet");
  expect(submitted.code).toBe(0);
  return submitted.stdout.trim();
}

async function eventKinds(taskId: string): Promise<string[]> {
  const rows = await fleet().database.pool.query<{ kind: string }>(
    "SELECT kind FROM lathe_cloud.events WHERE task_id = $1 ORDER BY seq",
    [taskId],
  );
  return rows.rows.map((row) => row.kind);
}

/** The task's patch applied to a fresh clone, and the project's check run there for real. */
function checkPasses(repo: string, patch: string): { exitCode: number; greet: string } {
  const clone = mkdtempSync(join(tmpdir(), "lathe-pipeline-clone-"));
  execFileSync("git", ["clone", "-q", repo, clone]);
  execFileSync("git", ["apply", "--binary", "-"], { cwd: clone, input: patch });
  let exitCode = 0;
  try {
    execFileSync(process.execPath, ["check.mjs"], { cwd: clone, stdio: "pipe" });
  } catch (error) {
    exitCode = (error as { status: number }).status;
  }
  return { exitCode, greet: readFileSync(join(clone, "greet.txt"), "utf8") };
}

describe("pipelines on the fleet", () => {
  it("runs the default pipeline: plan, research skipped, code checked, sent back once, approved, documented", async () => {
    const model = await twoWorkers([
      { when: "You are the planner of", text: "1. Make greet.txt say hello world.\nSKIP: researcher" },
      ...writes("You are the coder of", "greet.txt", "hello\n", "Wrote greet.txt."),
      {
        when: "You are the reviewer of",
        text: "The check fails: greet.txt must say exactly hello world.\nVERDICT: revise",
      },
      ...rewrites("sent the work back", "greet.txt", "hello world\n", "Fixed greet.txt."),
      {
        when: "You are the reviewer of",
        text: "The check passes and the change is minimal.\nVERDICT: approve",
      },
      ...writes("You are the documenter of", "NOTES.md", "greet.txt says hello world.\n", "Noted."),
    ]);
    const repo = fleet().repository(project);
    const id = await submit(repo, [
      "--pipeline",
      "default",
      "--verify",
      "node check.mjs",
      "make greet.txt say hello world",
    ]);
    const done = await taskReaches(fleet(), id, ["completed", "failed", "cancelled"], 120_000);
    expect(done.error).toBeNull();
    expect(done.status).toBe("completed");
    const steps = await stepsOf(fleet(), id);
    expect(steps.map((step) => [step.name, step.status, step.dependsOn])).toEqual([
      ["planner", "completed", []],
      ["researcher", "skipped", [0]],
      ["coder", "completed", [1]],
      ["reviewer", "completed", [2]],
      ["documenter", "completed", [6]],
      ["coder (sent back)", "completed", [3]],
      ["reviewer (again)", "completed", [5]],
    ]);
    expect(steps.map((step) => step.verify?.passed ?? null)).toEqual([
      null,
      null,
      false,
      null,
      null,
      true,
      null,
    ]);
    expect(steps[2]?.verify).toMatchObject({ command: "node check.mjs", exitCode: 1 });
    expect(steps.map((step) => step.verdict?.decision ?? null)).toEqual([
      null,
      null,
      null,
      "revise",
      null,
      null,
      "approve",
    ]);
    expect(steps[5]?.sentBackBy).toBe(3);
    expect(done.sendBacks).toBe(1);
    // Every scripted answer was asked for once: ten model requests, none more.
    expect(model.turnsServed()).toBe(10);
    expect(model.requests).toHaveLength(10);
    const kinds = await eventKinds(id);
    expect(kinds.filter((kind) => ["skip", "verify", "sendback", "review"].includes(kind))).toEqual([
      "skip",
      "verify",
      "sendback",
      "verify",
      "review",
    ]);
    // The readonly planner was offered no tool that writes; the coder was.
    const toolsOf = (index: number) =>
      ((model.requests[index]?.body as { tools?: { function: { name: string } }[] }).tools ?? []).map(
        (tool) => tool.function.name,
      );
    expect(toolsOf(0)).not.toContain("write_file");
    expect(toolsOf(1)).toContain("write_file");
    // The patch passes the project's own check, and carries the documenter's note.
    expect(done.patch?.match(/^\+\+\+ b\/(.+)$/gm)).toEqual(["+++ b/NOTES.md", "+++ b/greet.txt"]);
    expect(checkPasses(repo, done.patch ?? "")).toEqual({ exitCode: 0, greet: "hello world\n" });
  }, 180_000);

  it("sends the work back once and no more", async () => {
    const model = await twoWorkers([
      ...writes("You are the coder of", "greet.txt", "hello\n", "Wrote it."),
      { when: "You are the reviewer of", text: "Not yet.\nVERDICT: revise" },
      ...rewrites("sent the work back", "greet.txt", "hello there\n", "Changed it."),
      { when: "You are the reviewer of", text: "Still not right.\nVERDICT: revise" },
    ]);
    const repo = fleet().repository(project);
    const id = await submit(repo, ["--pipeline", "quick", "change greet.txt"]);
    const done = await taskReaches(fleet(), id, ["completed", "failed", "cancelled"], 120_000);
    expect(done.status).toBe("completed");
    const steps = await stepsOf(fleet(), id);
    expect(steps.map((step) => step.name)).toEqual([
      "coder",
      "reviewer",
      "coder (sent back)",
      "reviewer (again)",
    ]);
    expect(steps.map((step) => step.verdict?.decision ?? null)).toEqual([null, "revise", null, "revise"]);
    expect(done.sendBacks).toBe(1);
    expect(model.turnsServed()).toBe(7);
    const last = await fleet().database.pool.query<{ message: string }>(
      "SELECT message FROM lathe_cloud.events WHERE task_id = $1 AND kind = 'review'",
      [id],
    );
    expect(last.rows.map((row) => row.message)).toEqual([
      "the reviewer still asks for changes after 1 send-back(s), the most this pipeline allows: the work goes on as it is (Still not right.)",
    ]);
    expect(checkPasses(repo, done.patch ?? "").greet).toBe("hello there\n");
  }, 180_000);

  it("runs three attempts side by side, rejects the one whose check fails and ranks the others", async () => {
    await twoWorkers([
      ...writes("attempt 1 of 3", "greet.txt", "hello world\n", "Attempt one."),
      ...writes("attempt 2 of 3", "greet.txt", "hello\n", "Attempt two."),
      {
        when: "attempt 3 of 3",
        tool_calls: [{ name: "write_file", arguments: { path: "greet.txt", contents: "hello world\n" } }],
      },
      ...writes("attempt 3 of 3", "WHY.md", "Because the check says so.\n", "Attempt three, explained."),
      { when: "You are the reviewer of", text: "Attempt 3 explains itself.\nRANKING: 3, 1" },
    ]);
    const repo = fleet().repository(project);
    const id = await submit(repo, [
      "--pipeline",
      "quick",
      "--attempts",
      "3",
      "--verify",
      "node check.mjs",
      "make greet.txt say hello world",
    ]);
    const done = await taskReaches(fleet(), id, ["completed", "failed", "cancelled"], 120_000);
    expect(done.status).toBe("completed");
    expect(done.ranking).toEqual({
      order: [3, 1],
      rejected: [{ attempt: 2, reason: "its check `node check.mjs` failed (exit 1)" }],
      reason: "Attempt 3 explains itself.",
    });
    const steps = await stepsOf(fleet(), id);
    expect(steps.map((step) => [step.name, step.attemptNo, step.verify?.passed ?? null])).toEqual([
      ["coder #1", 1, true],
      ["coder #2", 2, false],
      ["coder #3", 3, true],
      ["reviewer (ranking)", null, null],
    ]);
    // Side by side on two workers: two of the attempts ran at once, one on each.
    const attempts = steps.slice(0, 3);
    const together = attempts.flatMap((one) =>
      attempts.filter(
        (other) =>
          other !== one &&
          other.workerId !== one.workerId &&
          other.startedAt!.getTime() < one.completedAt!.getTime() &&
          one.startedAt!.getTime() < other.completedAt!.getTime(),
      ),
    );
    expect(together.length).toBeGreaterThan(0);
    expect(done.patch).toBe(steps[2]?.taskPatch);
    expect(done.patch?.match(/^\+\+\+ b\/(.+)$/gm)).toEqual(["+++ b/WHY.md", "+++ b/greet.txt"]);
    const shown = await lathe(["cloud", "show", id, "--database", fleet().url], { home: clientHome() });
    expect(shown.stdout).toContain("Attempts:");
    expect(shown.stdout).toMatch(/#1\s+passed\s+1 file, \+1 −0\s+2\s+worker-/);
    expect(shown.stdout).toMatch(/#2\s+failed\s+1 file, \+1 −0\s+rejected\s+worker-/);
    expect(shown.stdout).toMatch(/#3\s+passed\s+2 files, \+2 −0\s+1\s+worker-/);
    expect(shown.stdout).toContain("#2 rejected: its check `node check.mjs` failed (exit 1)");
  }, 180_000);
});
