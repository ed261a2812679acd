import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eventsAfter, readTask, type TaskEvent } from "@lathe/cloud";
import { afterEach, describe, expect, it } from "vitest";
import { eventLine } from "../src/cloud/cloudOutput.js";
import { fleetForThisFile, taskReaches } from "./cloudFleet.js";
import { closeScriptedModels, modelArgs, scriptedModel, waitForPrompt } from "./scriptedTerminal.js";
import {
  closeTerminals,
  keys,
  occurrences,
  startTerminal,
  type Terminal,
  terminalWorkspace,
} from "./terminalScreen.js";

const fleet = fleetForThisFile();

afterEach(async () => {
  await closeTerminals();
  await closeScriptedModels();
});

/**
 * The terminal UI in a git repository of its own (what `/cloud submit` sends), pointed at the
 * fleet's database by LATHE_DATABASE_URL unless `database` is false; its own model answers typed
 * messages. Wide enough that no event's line wraps.
 */
async function cloudTerminal(database = true): Promise<Terminal> {
  const model = await scriptedModel([{ text: "Still here." }]);
  const { home } = await terminalWorkspace();
  const terminal = await startTerminal({
    args: modelArgs(model),
    cwd: fleet().repository(),
    home,
    cols: 220,
    rows: 50,
    env: database ? { LATHE_DATABASE_URL: fleet().url } : {},
  });
  await waitForPrompt(terminal);
  return terminal;
}

/** The task's events as `lathe cloud watch` prints them, as the screen holds them (rows trimmed). */
async function eventLines(taskId: string): Promise<string[]> {
  const events: TaskEvent[] = await eventsAfter(fleet().database.pool, taskId, 0);
  return events.map((event) =>
    eventLine(event)
      .split("\n")
      .map((row) => row.trimEnd())
      .join("\n"),
  );
}

/** Each line on the screen exactly once, in this order. */
function expectOnceInOrder(screen: string, lines: readonly string[]): void {
  let from = 0;
  for (const line of lines) {
    expect(occurrences(screen, line), line).toBe(1);
    const at = screen.indexOf(line);
    expect(at, `${line} comes after the line before it`).toBeGreaterThanOrEqual(from);
    from = at + line.length;
  }
}

describe("/cloud in the terminal UI, on a real PostgreSQL with a real lathe worker", () => {
  it("submits this project, says where the task went and why, streams its events live to completed, lists it and applies it", async () => {
    // The model holds its first answer back: the step is seen running before the task completes.
    const worker = await fleet().startWorker([
      {
        tool_calls: [
          { name: "write_file", arguments: { path: "result.txt", contents: "done by the fleet\n" } },
        ],
        hang_ms: 1500,
      },
      { text: "Wrote result.txt." },
    ]);
    const terminal = await cloudTerminal();
    await terminal.submit('/cloud submit "write result.txt" --priority 3 --retries 1');
    const queued = await terminal.waitFor(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/m,
      30_000,
    );
    const id = /^([0-9a-f-]{36})$/m.exec(queued)?.[1] ?? "";
    const short = id.slice(0, 8);
    const task = await readTask(fleet().database.pool, id);
    expect(task).toMatchObject({ priority: 3, maxRetries: 1, route: "cloud", title: "write result.txt" });

    await terminal.waitFor(`step 1 started on ${worker.deviceId}`, 30_000);
    // Live: the step's start is on screen while the task still runs.
    expect((await readTask(fleet().database.pool, id))?.status).toBe("running");

    const done = `Task ${short} completed: /cloud show ${short} shows its result, /cloud apply ${short} applies its patch here.`;
    const screen = await terminal.waitFor(done, 60_000);
    const lines = await eventLines(id);
    expect(lines.at(-1)).toMatch(/#\d+\s+completed$/);
    expect(screen).toContain(
      [
        '› /cloud submit "write result.txt" --priority 3 --retries 1',
        `Queued for the fleet (cloud: ${task?.routeReason}). Follow it with: lathe cloud watch ${short}`,
        id,
        `Watching task ${short}: Esc stops watching (the task goes on).`,
        ...lines,
        done,
      ].join("\n"),
    );
    expectOnceInOrder(screen, lines);
    const finished = await readTask(fleet().database.pool, id);
    expect(finished?.status).toBe("completed");
    expect(finished?.patch).toContain("+++ b/result.txt\n");
    expect(finished?.patch).toContain("\n+done by the fleet\n");
    expect(worker.model.requests).toHaveLength(2);

    await terminal.submit("/cloud list");
    const listed = await terminal.waitFor(
      new RegExp(`^${short}\\s+completed\\s+3\\s+\\d+[smhd]\\s+write result\\.txt$`, "m"),
    );
    expect(listed).toMatch(/^› \/cloud list\nID\s+STATUS\s+PRIORITY\s+AGE\s+TASK$/m);

    // The task's patch into the project the UI runs in, behind a checkpoint.
    await terminal.submit(`/cloud apply ${short}`);
    await terminal.waitFor(
      new RegExp(
        `^Applied task ${short} \\(1 file, \\+1 −0\\)\\. Undo with: lathe checkpoints restore \\S+$`,
        "m",
      ),
    );
    expect(readFileSync(join(terminal.root, "result.txt"), "utf8")).toBe("done by the fleet\n");
  }, 120_000);

  it("watches a task waiting for an approval, says so, and an answer typed in the UI resumes it", async () => {
    // ask_first asks about `echo hi > out.txt`; nobody at the worker can answer it.
    const worker = await fleet().startWorker([
      { tool_calls: [{ name: "run_terminal_cmd", arguments: { command: "echo hi > out.txt" } }] },
      { text: "Wrote out.txt." },
    ]);
    const task = await fleet().submit("write hi to out.txt", {
      repoUrl: `file://${fleet().repository()}`,
      approvalMode: "ask_first",
    });
    const short = task.id.slice(0, 8);
    await taskReaches(fleet(), task.id, ["needs_input"]);
    const terminal = await cloudTerminal();
    await terminal.submit(`/cloud watch ${short}`);
    const waits = `Task ${short} waits for an answer: /cloud answer ${short} --allow (or --deny).`;
    const asked = await terminal.waitFor(waits, 30_000);
    const question = (await eventLines(task.id)).find((line) => line.includes("needs an answer: allow"));
    expect(question).toMatch(/#\d+\s+step 1\s+! needs an answer: allow run_terminal_cmd\? \S/);
    expect(asked).toContain(`${question}\n${waits}`);

    await terminal.submit(`/cloud answer ${short} --allow`);
    // The answer's own event may reach the watch before the command says it is done.
    const answered = await terminal.waitFor(`\nTask ${short} step 1: allowed.\n`);
    expect(answered.indexOf(`Task ${short} step 1: allowed.`)).toBeGreaterThan(
      answered.indexOf(`› /cloud answer ${short} --allow`),
    );
    const screen = await terminal.waitFor(`Task ${short} completed: /cloud show ${short}`, 60_000);
    const lines = await eventLines(task.id);
    expect(lines.some((line) => /#\d+\s+step 1\s+allowed$/.test(line))).toBe(true);
    expectOnceInOrder(screen, lines);
    const done = await readTask(fleet().database.pool, task.id);
    expect(done?.status).toBe("completed");
    expect(done?.patch).toContain("+++ b/out.txt\n");
    expect(done?.patch).toMatch(/\n\+hi\n/);
    expect(worker.model.requests).toHaveLength(2);
  }, 120_000);

  it("stops a watch on Esc without touching the task, takes commands while watching, and cancels from the UI", async () => {
    // No worker: the task stays queued.
    const task = await fleet().submit("wait in the queue", { repoUrl: `file://${fleet().repository()}` });
    const short = task.id.slice(0, 8);
    const terminal = await cloudTerminal();
    await terminal.submit(`/cloud watch ${short}`);
    const [queuedLine = ""] = await eventLines(task.id);
    await terminal.waitFor(
      `Watching task ${short}: Esc stops watching (the task goes on).\n${queuedLine}`,
      30_000,
    );

    // Typed while the watch streams: the command runs, the watch goes on.
    await terminal.submit(`/cloud show ${short}`);
    await terminal.waitFor(`Task ${task.id}\n  status    queued\n  title     wait in the queue`);
    expect(terminal.screen()).not.toContain("Stopped watching");

    terminal.type(keys.esc);
    const stopped = `Stopped watching task ${short}; it goes on (/cloud watch ${short} follows it again).`;
    await terminal.waitFor(stopped);
    expect((await readTask(fleet().database.pool, task.id))?.status).toBe("queued");
    // The prompt is the session's again: a message goes to the model.
    await terminal.submit("Are you there?");
    await terminal.waitFor("Still here.");

    // Watched again, and cancelled from the UI: the watch shows the cancel live and ends with it.
    await terminal.submit(`/cloud watch ${short}`);
    await terminal.waitFor((screen) => occurrences(screen, queuedLine) === 2);
    await terminal.submit(`/cloud cancel ${short}`);
    await terminal.waitFor(`Task ${short} cancelled (cancelled).`);
    const ended = await terminal.waitFor(`Task ${short} was cancelled.`, 30_000);
    const lines = await eventLines(task.id);
    expect(lines.at(-1)).toMatch(/#\d+\s+cancelled$/);
    for (const line of lines.slice(1)) expect(occurrences(ended, line), line).toBe(1);
    expect((await readTask(fleet().database.pool, task.id))?.status).toBe("cancelled");
  }, 120_000);

  it("says a missing or unreachable database with its coded error, and the UI goes on", async () => {
    const terminal = await cloudTerminal(false);
    await terminal.submit("/cloud");
    await terminal.waitFor(
      [
        "› /cloud",
        "lathe cloud: No task database: pass --database URL, set LATHE_DATABASE_URL, or start one with `lathe cloud up`. [E_CLOUD_URL]",
        "  Give a PostgreSQL URL (postgres://user@host:port/database): --database, LATHE_DATABASE_URL, or `lathe cloud up`.",
      ].join("\n"),
    );

    await terminal.submit("/cloud watch deadbeef --database postgres://lathe@127.0.0.1:1/postgres");
    const unreachable = await terminal.waitFor("[E_CLOUD_UNREACHABLE]");
    expect(unreachable).toMatch(
      /^› \/cloud watch deadbeef --database postgres:\/\/lathe@127\.0\.0\.1:1\/postgres\nlathe cloud: No answer from the task database at postgres:\/\/lathe@127\.0\.0\.1:1\/postgres: .*\[E_CLOUD_UNREACHABLE\]\n {2}The task database did not answer; check that PostgreSQL runs at that address \(`lathe cloud up` starts one here\)\.$/m,
    );
    expect(unreachable).not.toContain("Watching task");

    await terminal.submit('/cloud submit "unclosed');
    await terminal.waitFor('› /cloud submit "unclosed\n/cloud: the double quote is not closed.');
    await terminal.submit("/cloud submit --local write here");
    await terminal.waitFor(
      "/cloud submit --local would run the task outside this session: type it as a message to run it here.",
    );
    await terminal.submit("/help");
    await terminal.waitFor(
      "  /cloud [list|submit TASK|watch ID|…]  tasks on the worker fleet, as lathe cloud runs them (Esc stops a watch)",
    );
    await terminal.submit("Are you there?");
    await terminal.waitFor("Still here.");
  }, 60_000);
});
