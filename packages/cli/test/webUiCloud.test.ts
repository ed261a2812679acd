// The web UI's Cloud tab end to end: a real `lathe serve` on a real PostgreSQL (the fleet's), real
// `lathe worker` processes on scripted models, driven through headless Chromium. Each test serves
// its own project (a git repository, bundled on submit); the database and the browser are shared.

import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { cloudSchema, eventsAfter, readSteps, readTask } from "@lathe/cloud";
import type { FakeTurn } from "@lathe/testkit";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { clientHome, fleetForThisFile, lathe, writesFile } from "./cloudFleet.js";
import {
  chromiumExecutable,
  launchChromium,
  openUi,
  type ServedUi,
  screenshot,
  serveUi,
  texts,
  type UiPage,
  watchSelector,
} from "./webUiHarness.js";

const noBrowser = chromiumExecutable === undefined;
if (noBrowser) console.warn("webUiCloud.test.ts skipped: no Chromium (apt-get install chromium)");

const fleet = fleetForThisFile();
let browser: Browser | undefined;
let served: ServedUi | undefined;
const pages: UiPage[] = [];

beforeAll(async () => {
  if (!noBrowser) browser = await launchChromium();
}, 30_000);
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await Promise.all(pages.splice(0).map((page) => page.close()));
  await served?.close();
  served = undefined;
});

/** `lathe serve` on a project committed to git (a task starts from its last commit), on the fleet's database. */
/** `lathe serve` on the fleet's database; `turns` answer the steps it runs as this device's worker. */
async function serveProject(files: Record<string, string>, turns: FakeTurn[] = []): Promise<ServedUi> {
  served = await serveUi({ turns, files, env: { LATHE_DATABASE_URL: fleet().url } });
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
      cwd: served!.root,
      stdio: "pipe",
    });
  git("init", "-q", "-b", "main");
  git("add", ".");
  git("commit", "-q", "-m", "init");
  return served;
}

/** A page on the served UI, switched to the Cloud tab. */
async function openCloudTab(): Promise<Page> {
  const ui = await openUi(browser!, served!);
  pages.push(ui);
  await ui.page.getByTestId("view-cloud").click();
  return ui.page;
}

/** The Cloud tab, once it has reached the task database. */
async function openCloud(): Promise<Page> {
  const page = await openCloudTab();
  await page.getByTestId("cloud-submit-form").waitFor();
  return page;
}

/** The device id `lathe serve` made for its machine (in its $LATHE_HOME). */
function servedDevice(): string {
  return (JSON.parse(readFileSync(join(served!.home, "cloud", "device.json"), "utf8")) as { id: string }).id;
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

async function taskCount(): Promise<number> {
  const counted = await fleet().database.pool.query<{ count: string }>(
    `SELECT count(*) AS count FROM ${cloudSchema}.tasks`,
  );
  return Number(counted.rows[0]?.count);
}

/** Submits from the form and returns the id of the task the page then shows. */
async function submit(page: Page, prompt: string, fields: { approvalMode?: string } = {}): Promise<string> {
  const shown = await page
    .getByTestId("task-progress")
    .getAttribute("data-task", { timeout: 500 })
    .catch(() => null);
  await page.getByTestId("cloud-prompt").fill(prompt);
  if (fields.approvalMode) await page.getByTestId("cloud-approval-mode").selectOption(fields.approvalMode);
  await page.getByTestId("cloud-submit").click();
  const progress = page.locator(
    shown === null
      ? '[data-testid="task-progress"]'
      : `[data-testid="task-progress"]:not([data-task="${shown}"])`,
  );
  await progress.waitFor();
  const id = await progress.getAttribute("data-task");
  if (!id) throw new Error("the page shows no task");
  return id;
}

async function waitForTaskStatus(page: Page, status: string, timeout = 60_000): Promise<void> {
  try {
    await page.locator(`[data-testid="task-progress"][data-status="${status}"]`).waitFor({ timeout });
  } catch (error) {
    const shown = await page
      .getByTestId("task-progress")
      .getAttribute("data-status")
      .catch(() => "(none)");
    const workers = fleet()
      .workers.map((worker) => worker.output())
      .join("\n");
    throw new Error(`the task never showed ${status}; it shows ${shown}\n${workers}\n${String(error)}`);
  }
}

/** The log as the page shows it: seq and message of every line. */
async function shownLog(page: Page): Promise<{ seqs: number[]; messages: string[] }> {
  // The tests compile without the DOM library: an element here is what the recorder uses of it.
  const seqs = await page
    .getByTestId("log-line")
    .evaluateAll((lines) =>
      lines.map((line) =>
        Number((line as unknown as { getAttribute(name: string): string | null }).getAttribute("data-seq")),
      ),
    );
  return { seqs, messages: await texts(page.getByTestId("log-message")) };
}

/** The task's events as the database holds them. */
async function storedLog(taskId: string): Promise<{ seqs: number[]; messages: string[] }> {
  const events = await eventsAfter(fleet().database.pool, taskId, 0);
  return { seqs: events.map((event) => event.seq), messages: events.map((event) => event.message) };
}

/** The page shows every stored event once, in order, with none missing. */
async function expectWholeLog(page: Page, taskId: string): Promise<void> {
  const stored = await storedLog(taskId);
  await expect
    .poll(async () => (await shownLog(page)).seqs.length, { timeout: 10_000 })
    .toBe(stored.seqs.length);
  expect(await shownLog(page)).toEqual(stored);
  expect(stored.seqs).toEqual(stored.seqs.map((_, index) => index + 1));
}

/**
 * Reads a task's Server-Sent Events as a browser would, with the access token, until the event of
 * seq `lastSeq`: each event's id, seq and message.
 */
async function readEventStream(
  path: string,
  headers: Record<string, string>,
  lastSeq: number,
): Promise<{ id: string; seq: number; message: string }[]> {
  const response = await fetch(`${served!.origin}${path}`, {
    headers: { authorization: `Bearer ${served!.token}`, accept: "text/event-stream", ...headers },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
  const reader = response.body!.getReader();
  const received: { id: string; seq: number; message: string }[] = [];
  const decoder = new TextDecoder();
  let buffered = "";
  // The stream stays open for live events: it is read until the last one wanted, then dropped.
  while (received.at(-1) === undefined || received.at(-1)!.seq < lastSeq) {
    const { done, value } = await reader.read();
    if (done) break;
    buffered += decoder.decode(value, { stream: true });
    const blocks = buffered.split("\n\n");
    buffered = blocks.pop() ?? "";
    for (const block of blocks) {
      const id = /^id: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (id === undefined || data === undefined) continue;
      const event = JSON.parse(data) as { seq: number; message: string };
      received.push({ id, seq: event.seq, message: event.message });
    }
  }
  await reader.cancel();
  return received;
}

describe.skipIf(noBrowser)(
  `the web UI's Cloud tab on a real PostgreSQL and real workers${noBrowser ? " (skipped: no Chromium)" : ""}`,
  { timeout: 150_000 },
  () => {
    it("submits from the tab: the task is listed, its log streams live to the end, and its patch is applied to the project", async () => {
      await fleet().startWorker([
        {
          text: "Writing the result.",
          tool_calls: [
            { name: "write_file", arguments: { path: "result.txt", contents: "done by the fleet\n" } },
          ],
        },
        // Long enough that the page shows the task running with its first log lines.
        { text: "Wrote result.txt.", hang_ms: 1_500 },
      ]);
      await serveProject({ "a.txt": "first\n" });
      const page = await openCloud();
      const liveLine = await watchSelector(
        page,
        '[data-testid="task-progress"][data-status="running"] [data-testid="log-line"][data-kind="log"]',
      );

      // Bad input is refused with its code, and nothing is queued.
      const before = await taskCount();
      await page.getByTestId("cloud-prompt").fill("write result.txt");
      await page.getByTestId("cloud-attempts").fill("0");
      await page.getByTestId("cloud-submit").click();
      const refusal = await page.getByTestId("cloud-submit-error").textContent();
      expect(refusal).toMatch(/^E_INVALID_ARGS: /);
      expect(refusal).toContain("attempts");
      expect(await taskCount()).toBe(before);
      await page.getByTestId("cloud-attempts").fill("1");
      await page.getByTestId("cloud-budget-tokens").fill("1000000");
      await page.getByTestId("cloud-budget-cost").fill("5");
      await page.getByTestId("cloud-budget-seconds").fill("600");

      const id = await submit(page, "write result.txt");
      const row = page.locator(`[data-testid="cloud-task-row"][data-id="${id}"]`);
      await row.waitFor();
      expect(await row.getByTestId("cloud-task-title").textContent()).toBe("write result.txt");
      expect(await row.getByTestId("cloud-task-route").textContent()).toBe("cloud");
      await expect.poll(() => liveLine.seen(), { timeout: 30_000 }).toBe(true);
      await screenshot(page, "cloud-live-task");

      await waitForTaskStatus(page, "completed");
      await expectWholeLog(page, id);
      const { messages } = await shownLog(page);
      expect(
        messages.filter((message) => message.includes('→ write_file {"path":"result.txt"')),
      ).toHaveLength(1);
      expect(messages.at(-1)).toBe("completed");
      expect(await page.getByTestId("step-node").count()).toBe(1);
      expect(await page.getByTestId("step-node").getAttribute("data-status")).toBe("completed");
      expect(await page.getByTestId("step-place").textContent()).toBe("on worker-1");
      await row.and(page.locator('[data-status="completed"]')).waitFor();
      expect(await texts(page.getByTestId("task-patch").getByTestId("patch-file"))).toEqual(["result.txt"]);
      // What it used, against the budget it was given.
      const stored = (await readTask(fleet().database.pool, id))!;
      expect(stored.budget).toEqual({ tokens: 1_000_000, costUsd: 5, seconds: 600 });
      const tokens = stored.usage.inputTokens + stored.usage.outputTokens;
      expect(tokens).toBeGreaterThan(0);
      expect(await page.getByTestId("usage-tokens").textContent()).toBe(
        `Tokens${tokens.toLocaleString("en-US")} / 1,000,000`,
      );
      expect(await page.getByTestId("usage-cost").textContent()).toBe(
        `Cost$${stored.usage.costUsd.toFixed(4)} / $5.00`,
      );
      expect(await page.getByTestId("usage-time").textContent()).toMatch(/^Time\d+ s \/ 600 s$/);
      await screenshot(page, "cloud-list");

      await page.getByTestId("task-apply").click();
      const applied = page.getByTestId("apply-result");
      await applied.waitFor();
      expect(await applied.textContent()).toMatch(
        new RegExp(
          `^The task's changes applied to ${escaped(served!.root)} \\(1 file, \\+1 −0\\)\\. Undo it from the checkpoint taken before [0-9a-f-]{8} \\(its session is in the session list\\)\\.$`,
        ),
      );
      expect(readFileSync(join(served!.root, "result.txt"), "utf8")).toBe("done by the fleet\n");
      expect(readFileSync(join(served!.root, "a.txt"), "utf8")).toBe("first\n");
      await screenshot(page, "cloud-after-apply");
    });

    it("asks for an approval in both pages watching the task, takes Allow from the second, and both follow it to the end", async () => {
      // `echo hi > out.txt` runs unasked under auto_edit; ask_first asks about it.
      await fleet().startWorker([
        { tool_calls: [{ name: "run_terminal_cmd", arguments: { command: "echo hi > out.txt" } }] },
        { text: "Wrote out.txt." },
      ]);
      await serveProject({ "a.txt": "first\n" });
      const first = await openCloud();
      const id = await submit(first, "write hi to out.txt", { approvalMode: "ask_first" });

      // A second browser context: another device's view of the same task, opened from the list.
      const second = await openCloud();
      await second.locator(`[data-testid="cloud-task-row"][data-id="${id}"]`).click();
      await second.locator(`[data-testid="task-progress"][data-task="${id}"]`).waitFor();

      for (const page of [first, second]) {
        const question = page.getByTestId("cloud-question");
        await question.waitFor({ timeout: 60_000 });
        expect(await question.getAttribute("data-step")).toBe("0");
        expect(await question.getByTestId("cloud-question-call").textContent()).toBe(
          "Running echo hi > out.txt",
        );
        expect(await page.getByTestId("task-status").textContent()).toBe("needs input");
      }
      await screenshot(first, "cloud-approval");

      await second.getByTestId("question-allow").click();
      for (const page of [first, second]) {
        await waitForTaskStatus(page, "completed");
        expect(await page.getByTestId("cloud-question").count()).toBe(0);
      }
      // Both pages show the same log, every event once: question, answer, and on to the end.
      await expectWholeLog(first, id);
      await expectWholeLog(second, id);
      // A page loaded again (its address names the tab and the task) catches up with all of it.
      await second.reload();
      await second
        .locator(`[data-testid="task-progress"][data-task="${id}"][data-status="completed"]`)
        .waitFor();
      await expectWholeLog(second, id);
      const events = await eventsAfter(fleet().database.pool, id, 0);
      const exchange = events.filter((event) => event.kind === "question" || event.kind === "answer");
      expect(exchange.map((event) => [event.kind, event.deviceId])).toEqual([
        ["question", "worker-1"],
        ["answer", servedDevice()],
      ]);
      expect(exchange[1]?.message).toBe("allowed");

      // A page that reconnects names the last event it has (EventSource sends it as Last-Event-ID)
      // and gets exactly the ones after it, then the live ones.
      const resumed = await readEventStream(
        `/api/cloud/tasks/${id}/events?after=0`,
        { "last-event-id": "5" },
        events.length,
      );
      expect(resumed).toEqual(
        events.slice(5).map((event) => ({ id: String(event.seq), seq: event.seq, message: event.message })),
      );

      await first.getByTestId("task-apply").click();
      await first.getByTestId("apply-result").waitFor();
      expect(readFileSync(join(served!.root, "out.txt"), "utf8")).toBe("hi\n");
    });

    it("runs this device's step in the served face itself after Run here, and shows a step held for another device's", async () => {
      // No worker of this device's own: `lathe serve`, once the tab opened the database, claims it.
      await serveProject({ "a.txt": "first\n" }, writesFile("here.txt", "made here\n"));
      const page = await openCloud();
      const here = servedDevice();
      const repoUrl = `file://${fleet().repository()}`;
      const task = await fleet().submit("write here.txt", { deviceId: here, repoUrl, onDevice: ["task"] });
      await page.locator(`[data-testid="cloud-task-row"][data-id="${task.id}"]`).click();
      const prompt = page.getByTestId("local-execution-prompt");
      await prompt.waitFor({ timeout: 60_000 });
      expect(await prompt.locator(".lc-question-title").textContent()).toBe(
        `Step 1 (task) asks to run on this device (${here})`,
      );
      expect(await prompt.getByTestId("local-execution-what").textContent()).toBe("write here.txt");
      await screenshot(page, "cloud-local-execution");
      await prompt.getByTestId("local-run-here").click();
      await waitForTaskStatus(page, "completed");
      expect(await page.getByTestId("step-place").textContent()).toBe(`on ${here}`);
      expect((await readTask(fleet().database.pool, task.id))?.patch).toContain("\n+made here\n");
      const consent = (await eventsAfter(fleet().database.pool, task.id, 0)).filter((event) =>
        ["question", "answer", "consent"].includes(event.kind),
      );
      expect(consent.map((event) => [event.kind, event.deviceId])).toEqual([
        ["question", here],
        ["answer", here],
        ["consent", here],
      ]);

      // Another device's step waits for that device: this page says so, and cannot consent for it.
      await fleet().startWorker([], { deviceId: "laptop", deviceOnly: true });
      const elsewhere = await fleet().submit("write there.txt", {
        deviceId: "laptop",
        repoUrl,
        onDevice: ["task"],
      });
      await page.locator(`[data-testid="cloud-task-row"][data-id="${elsewhere.id}"]`).click();
      const waiting = page.getByTestId("consent-waiting");
      await waiting.waitFor({ timeout: 60_000 });
      expect(await waiting.textContent()).toBe(
        "Step 1 (task) is waiting for consent on device laptop: it runs there once that device's user allows it.",
      );
      expect(await page.getByTestId("local-execution-prompt").count()).toBe(0);
      const refused = await fetch(`${served!.origin}/api/cloud/tasks/${elsewhere.id}/answer`, {
        method: "POST",
        headers: { authorization: `Bearer ${served!.token}`, "content-type": "application/json" },
        body: JSON.stringify({ allow: true }),
      });
      expect([refused.status, await refused.json()]).toEqual([
        409,
        {
          error: {
            code: "E_TASK_STATE",
            message: `Step 1 asks to run on device laptop: only that device can consent (this is ${here}).`,
          },
        },
      ]);
      await screenshot(page, "cloud-consent-elsewhere");
      await page.getByTestId("cloud-cancel").click();
      await waitForTaskStatus(page, "cancelled");
      expect(await page.getByTestId("cloud-cancel").count()).toBe(0);
    });

    it("says what is missing when `lathe serve` has no task database, and refuses bad requests with their code", async () => {
      served = await serveUi({ turns: [], files: { "a.txt": "first\n" }, env: { LATHE_DATABASE_URL: "" } });
      const page = await openCloudTab();
      const unavailable = page.getByTestId("cloud-unavailable");
      await unavailable.waitFor();
      expect(await unavailable.textContent()).toBe(
        "E_CLOUD_URL: No task database for the Cloud tab: start one on this machine with `lathe cloud up`, or start `lathe serve` with LATHE_DATABASE_URL set to a PostgreSQL URL.",
      );
      await screenshot(page, "cloud-no-database");

      const call = async (method: string, path: string, body?: unknown) => {
        const response = await fetch(`${served!.origin}${path}`, {
          method,
          headers: { authorization: `Bearer ${served!.token}`, "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: response.status, body: (await response.json()) as { error?: { code: string } } };
      };
      expect(await call("GET", "/api/cloud/tasks")).toMatchObject({
        status: 503,
        body: { error: { code: "E_CLOUD_URL" } },
      });
      const root = served.root;
      for (const [body, status, code] of [
        [{ projectRoot: root, prompt: "x", attempts: 9 }, 400, "E_INVALID_ARGS"],
        [{ projectRoot: root, prompt: "   " }, 400, "E_INVALID_ARGS"],
        [{ projectRoot: root, prompt: "x", approvalMode: "yolo" }, 400, "E_INVALID_ARGS"],
        [{ projectRoot: root, prompt: "x", budget: { tokens: -5 } }, 400, "E_INVALID_ARGS"],
        [{ projectRoot: root, prompt: "x", surprise: true }, 400, "E_INVALID_ARGS"],
        [{ projectRoot: "/etc", prompt: "x" }, 403, "E_PROJECT_NOT_OPEN"],
      ] as const) {
        expect(await call("POST", "/api/cloud/tasks", body), JSON.stringify(body)).toMatchObject({
          status,
          body: { error: { code } },
        });
      }
      expect(await call("POST", "/api/cloud/tasks/abcd/answer", { allow: "yes" })).toMatchObject({
        status: 400,
        body: { error: { code: "E_INVALID_ARGS" } },
      });
      // A stream's resume point is checked before anything is read.
      for (const [query, headers] of [
        ["?after=-1", {}],
        ["?after=0", { "last-event-id": "x" }],
      ] as const) {
        const stream = await fetch(`${served.origin}/api/cloud/tasks/abcd/events${query}`, {
          headers: { authorization: `Bearer ${served.token}`, ...headers },
        });
        expect([stream.status, ((await stream.json()) as { error: { code: string } }).error.code]).toEqual([
          400,
          "E_INVALID_ARGS",
        ]);
      }
      // Other origins are refused here as everywhere.
      const foreign = await fetch(`${served.origin}/api/cloud/tasks/abcd/events`, {
        headers: { authorization: `Bearer ${served.token}`, origin: "http://evil.example" },
      });
      expect(foreign.status).toBe(403);
    });

    it("draws a pipeline's graph as it grows: the reviewer's send-back and the coder's second round are marked", async () => {
      const coder = "You are the coder of";
      const reviewer = "You are the reviewer of";
      const writes = (contents: string) => ({
        when: coder,
        tool_calls: [{ name: "write_file", arguments: { path: "result.txt", contents } }],
      });
      await fleet().startWorker([
        writes("first draft\n"),
        { when: coder, text: "Wrote result.txt." },
        { when: reviewer, text: "Say it plainly.\nVERDICT: revise" },
        // The file is there now: it is read before it is written again.
        { when: coder, tool_calls: [{ name: "read_file", arguments: { path: "result.txt" } }] },
        writes("final\n"),
        { when: coder, text: "Rewrote result.txt." },
        { when: reviewer, text: "Plain now.\nVERDICT: approve" },
      ]);
      await serveProject({ "a.txt": "first\n" });
      const page = await openCloud();
      await page.getByTestId("cloud-pipeline").selectOption("quick");
      await submit(page, "write result.txt");
      await waitForTaskStatus(page, "completed");
      expect(await texts(page.getByTestId("step-name"))).toEqual([
        "1. coder",
        "2. reviewer",
        "3. coder (sent back)",
        "4. reviewer (again)",
      ]);
      const node = (index: number) => page.locator(`[data-testid="step-node"][data-index="${index}"]`);
      expect(await node(1).getByTestId("step-sends-back").textContent()).toBe("↩ sent the work back");
      expect(await node(2).getByTestId("step-sent-back").textContent()).toBe("↩ redone after step 2");
      for (const index of [0, 3]) {
        expect(await node(index).getByTestId("step-sends-back").count()).toBe(0);
        expect(await node(index).getByTestId("step-sent-back").count()).toBe(0);
      }
      expect(await page.getByTestId("task-send-backs").textContent()).toBe("send-backs 1/1");
      await screenshot(page, "cloud-send-back");
      await page.getByTestId("task-apply").click();
      await page.getByTestId("apply-result").waitFor();
      expect(readFileSync(join(served!.root, "result.txt"), "utf8")).toBe("final\n");
    });

    it("compares best-of-N attempts side by side: two ranked, one rejected with its reason, and applies the one chosen", async () => {
      const worker = await fleet().startWorker([
        // One worker takes the three attempts one after another, in whichever order it claims them.
        ...["good one", "bad", "good two"].flatMap((contents) => [
          {
            tool_calls: [
              { name: "write_file", arguments: { path: "result.txt", contents: `${contents}\n` } },
            ],
          },
          { text: "Wrote result.txt." },
        ]),
        { text: "The first passing attempt is the simplest.\nRANKING: 1, 2, 3" },
      ]);
      await serveProject({ "a.txt": "first\n" });
      const page = await openCloud();
      await page.getByTestId("cloud-pipeline").selectOption("quick");
      await page.getByTestId("cloud-attempts").fill("3");
      await page.getByTestId("cloud-verify").fill("grep -q good result.txt");
      const id = await submit(page, "write result.txt");
      await waitForTaskStatus(page, "completed", 120_000);

      const task = await readTask(fleet().database.pool, id);
      const steps = await readSteps(fleet().database.pool, id);
      const contentsOf = (attempt: number) =>
        steps
          .filter((step) => step.attemptNo === attempt)
          .at(-1)
          ?.taskPatch?.match(/^\+(good one|bad|good two)$/m)?.[1];
      const bad = [1, 2, 3].find((attempt) => contentsOf(attempt) === "bad")!;
      const ranking = task!.ranking!;
      expect(ranking.order).toEqual([1, 2, 3].filter((attempt) => attempt !== bad));
      expect(ranking.rejected.map((entry) => entry.attempt)).toEqual([bad]);

      // The graph: three attempts side by side, then the ranking.
      expect(await page.getByTestId("step-node").count()).toBe(4);
      expect(await texts(page.getByTestId("step-attempt"))).toEqual(["attempt 1", "attempt 2", "attempt 3"]);

      const cards = page.getByTestId("attempt-card");
      expect(await cards.count()).toBe(3);
      const card = (attempt: number) =>
        page.locator(`[data-testid="attempt-card"][data-attempt="${attempt}"]`);
      const [best, second] = ranking.order as [number, number];
      expect(await card(best).getByTestId("attempt-rank").textContent()).toBe("best");
      expect(await card(second).getByTestId("attempt-rank").textContent()).toBe("#2 of 2");
      expect(await card(bad).getByTestId("attempt-rank").count()).toBe(0);
      expect(await card(bad).getByTestId("attempt-rejected-reason").textContent()).toBe(
        ranking.rejected[0]!.reason,
      );
      for (const attempt of [best, second])
        expect(await card(attempt).getAttribute("data-verify")).toBe("passed");
      expect(await card(bad).getAttribute("data-verify")).toBe("failed");
      expect(await card(bad).getByTestId("attempt-verify-result").textContent()).toBe(
        "Verify failed (grep -q good result.txt, exit 1)",
      );
      for (const attempt of [1, 2, 3])
        expect(await texts(card(attempt).getByTestId("patch-file"))).toEqual(["result.txt"]);
      expect(await page.getByTestId("ranking-reason").textContent()).toBe(`Reviewer: ${ranking.reason}`);
      expect(await card(bad).getByTestId("attempt-apply").isDisabled()).toBe(true);
      await card(second).getByTestId("patch-diff-toggle").click();
      await screenshot(page, "cloud-attempts");

      // Any passing attempt can be taken, not only the best.
      await card(second).getByTestId("attempt-apply").click();
      await page.locator(`[data-testid="apply-result"][data-attempt="${second}"]`).waitFor();
      expect(readFileSync(join(served!.root, "result.txt"), "utf8")).toBe(`${contentsOf(second)}\n`);
      await screenshot(page, "cloud-attempt-applied");

      // The one that failed its verify is refused by the server too, saying why.
      const refused = await fetch(`${served!.origin}/api/cloud/tasks/${id}/apply`, {
        method: "POST",
        headers: { authorization: `Bearer ${served!.token}`, "content-type": "application/json" },
        body: JSON.stringify({ projectRoot: served!.root, attempt: bad }),
      });
      expect(refused.status).toBe(409);
      expect(await refused.json()).toEqual({
        error: {
          code: "E_TASK_STATE",
          message: `Attempt ${bad} of task ${id.slice(0, 8)} did not pass its verify (\`grep -q good result.txt\` exited 1): it is not applied.`,
        },
      });
      expect(worker.model.requests).toHaveLength(7);

      // `lathe cloud apply --attempt K` takes the same path, here into another copy of the project.
      const home = clientHome();
      const copy = fleet().repository({ "a.txt": "first\n" });
      const cloud = (attempt: number) =>
        lathe(["cloud", "apply", id.slice(0, 8), "--attempt", String(attempt), "--database", fleet().url], {
          home,
          cwd: copy,
        });
      const viaCli = await cloud(best);
      expect(viaCli.code, viaCli.stderr).toBe(0);
      expect(viaCli.stdout).toMatch(
        new RegExp(
          `^Applied attempt ${best} of task ${id.slice(0, 8)} \\(1 file, \\+1 −0\\)\\. Undo with: lathe checkpoints restore \\S+\\n$`,
        ),
      );
      expect(readFileSync(join(copy, "result.txt"), "utf8")).toBe(`${contentsOf(best)}\n`);
      const failing = await cloud(bad);
      expect([failing.code, failing.stderr.split("\n")[0]]).toEqual([
        1,
        `lathe cloud: Attempt ${bad} of task ${id.slice(0, 8)} did not pass its verify (\`grep -q good result.txt\` exited 1): it is not applied. [E_TASK_STATE]`,
      ]);
      const missing = await cloud(4);
      expect([missing.code, missing.stderr.split("\n")[0]]).toEqual([
        1,
        `lathe cloud: Task ${id.slice(0, 8)} has no attempt 4: it ran attempts 1 to 3. [E_TASK_STATE]`,
      ]);
      expect(readFileSync(join(copy, "result.txt"), "utf8")).toBe(`${contentsOf(best)}\n`);
    });
  },
);
