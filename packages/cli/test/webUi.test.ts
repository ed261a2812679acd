// The web UI end to end: a real `lathe serve` child process on a scripted model, driven through
// headless Chromium. Each test starts its own server and project; the browser is shared.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fakeKeys } from "@lathe/testkit";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  chromiumExecutable,
  launchChromium,
  newSession,
  openUi,
  recordTexts,
  type ServedUi,
  type ServeOptions,
  screenshot,
  sendMessage,
  serveUi,
  texts,
  toolCard,
  type UiPage,
  waitForCardState,
  waitForRunState,
  watchSelector,
} from "./webUiHarness.js";

const noBrowser = chromiumExecutable === undefined;
if (noBrowser) {
  console.warn(
    "webUi.test.ts skipped: no Chromium at /usr/bin/chromium, /usr/bin/chromium-browser or /usr/bin/google-chrome (apt-get install chromium)",
  );
}

let browser: Browser | undefined;
let served: ServedUi | undefined;
let ui: UiPage | undefined;

beforeAll(async () => {
  if (!noBrowser) browser = await launchChromium();
}, 30_000);
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await ui?.close();
  await served?.close();
  ui = undefined;
  served = undefined;
});

/** Serves a project on the scripted turns and opens a page on a new session in it. */
async function start(options: ServeOptions) {
  served = await serveUi(options);
  ui = await openUi(browser!, served);
  const sessionId = await newSession(ui.page);
  return { page: ui.page, root: served.root, sessionId };
}

/** Nothing went wrong in the page itself. */
function expectNoPageErrors() {
  expect(ui?.pageErrors ?? []).toEqual([]);
}

/** A turn reading a file: edit_file refuses files the session has not read. */
function read(path: string) {
  return { tool_calls: [{ name: "read_file", arguments: { path } }] };
}

const answerWithCode = [
  "## What I found",
  "",
  "The notes ask for a constant. Here it is:",
  "",
  "```ts",
  "export const answer = 42;",
  "```",
  "",
  "It is exported so that the rest of the project can import it. ".repeat(6).trim(),
].join("\n");

describe.skipIf(noBrowser)(
  `the web UI in headless Chromium${noBrowser ? " (skipped: no Chromium executable found)" : ""}`,
  // A few seconds each alone; the margin is for a busy machine running other test files alongside.
  { timeout: 45_000 },
  () => {
    it("streams a task: a tool card completes and the answer's code block renders", async () => {
      const { page } = await start({
        files: { "notes.md": "# Notes\n\nWe need an exported constant.\n" },
        turns: [
          {
            text: "Let me read the notes.",
            tool_calls: [{ name: "read_file", arguments: { path: "notes.md" } }],
          },
          { text: answerWithCode, chunk_delay_ms: 40 },
        ],
      });
      // Seen in the page as it happens: polling from here could miss a stream that short.
      const streaming = await watchSelector(
        page,
        '[data-testid="assistant-message"][data-streaming="true"] [data-testid="code-block"]',
      );
      await sendMessage(page, "What do the notes ask for?");

      await expect.poll(() => streaming.seen(), { timeout: 15_000 }).toBe(true);
      await screenshot(page, "a-streaming");
      const card = toolCard(page, "read_file");
      await waitForCardState(card, "completed");
      expect(await card.getByTestId("tool-summary").textContent()).toContain("notes.md");

      await waitForRunState(page, "idle");
      expect(await userTexts(page)).toEqual(["What do the notes ask for?"]);
      const answer = page.getByTestId("assistant-message").last();
      expect(await answer.getAttribute("data-streaming")).toBe("false");
      expect(await answer.getByTestId("code-block").count()).toBe(1);
      expect(await answer.getByTestId("code-block").textContent()).toContain("export const answer = 42;");
      expect(await answer.locator("h2").textContent()).toBe("What I found");
      await screenshot(page, "a-completed");
      expectNoPageErrors();
    });

    it("shows an edit's diff for approval and applies it once approved", async () => {
      const before = "export function greet(name: string) {\n  return 'Hello ' + name;\n}\n";
      const { page, root } = await start({
        files: { "src/greet.ts": before },
        turns: [
          read("src/greet.ts"),
          {
            tool_calls: [
              {
                name: "edit_file",
                arguments: {
                  path: "src/greet.ts",
                  old_string: "  return 'Hello ' + name;",
                  new_string: "  return 'Hello, ' + name + '!';",
                },
              },
            ],
          },
          { text: "greet now adds a comma and an exclamation mark." },
        ],
      });
      await sendMessage(page, "Punctuate the greeting");

      const card = toolCard(page, "edit_file");
      await waitForCardState(card, "pending_approval");
      const diff = card.getByTestId("diff-view");
      await diff.waitFor();
      expect(await diff.getByTestId("diff-file").getAttribute("data-path")).toBe("src/greet.ts");
      expect(await diffLines(diff.getByTestId("diff-line-del"))).toEqual(["  return 'Hello ' + name;"]);
      expect(await diffLines(diff.getByTestId("diff-line-add"))).toEqual([
        "  return 'Hello, ' + name + '!';",
      ]);
      expect(readFileSync(join(root, "src/greet.ts"), "utf8")).toBe(before);
      await screenshot(page, "b-pending-approval");

      await card.getByTestId("approve").click();
      await waitForCardState(card, "completed");
      await waitForRunState(page, "idle");
      expect(readFileSync(join(root, "src/greet.ts"), "utf8")).toBe(
        "export function greet(name: string) {\n  return 'Hello, ' + name + '!';\n}\n",
      );
      // Applied, the card shows the edit's own diff: the file's line numbers and the lines around.
      await card.locator(".tool-header").click();
      const applied = card.getByTestId("diff-view");
      const numbers = (row: Locator) => row.locator(".diff-number").allTextContents();
      expect(await numbers(applied.getByTestId("diff-line-del"))).toEqual(["2", ""]);
      expect(await numbers(applied.getByTestId("diff-line-add"))).toEqual(["", "2"]);
      expect(await diffLines(applied.locator(".diff-line-context"))).toEqual([
        " export function greet(name: string) {",
        " }",
      ]);
      await page
        .getByTestId("assistant-message")
        .filter({ hasText: "greet now adds a comma and an exclamation mark." })
        .waitFor();
      await screenshot(page, "b-approved");
      expectNoPageErrors();
    });

    it("rejects a command: the card ends rejected and the command never runs", async () => {
      const { page, root } = await start({
        turns: [
          { tool_calls: [{ name: "run_terminal_cmd", arguments: { command: "echo made > created.txt" } }] },
          { text: "Understood, I will not create the file." },
        ],
      });
      await sendMessage(page, "Create created.txt");

      const card = toolCard(page, "run_terminal_cmd");
      await waitForCardState(card, "pending_approval");
      expect(await card.textContent()).toContain("echo made > created.txt");
      await card.getByTestId("reject").click();
      await waitForCardState(card, "rejected");
      await waitForRunState(page, "idle");
      await page
        .getByTestId("assistant-message")
        .filter({ hasText: "Understood, I will not create the file." })
        .waitFor();
      expect(existsSync(join(root, "created.txt"))).toBe(false);
      await screenshot(page, "c-rejected");
      expectNoPageErrors();
    });

    it("shows the plan's progress as the todos are done", async () => {
      const todos = (statuses: string[]) => ({
        name: "todo_write",
        arguments: {
          todos: statuses.map((status, i) => ({ id: `t${i + 1}`, content: `Step ${i + 1}`, status })),
        },
      });
      const { page } = await start({
        turns: [
          { text: "Planning.", tool_calls: [todos(["pending", "pending", "pending"])] },
          {
            // Keeps the fresh plan on screen for a moment, for the screenshot.
            hang_ms: 1_000,
            text: "First.",
            chunk_delay_ms: 20,
            tool_calls: [todos(["completed", "in_progress", "pending"])],
          },
          {
            text: "Second.",
            chunk_delay_ms: 20,
            tool_calls: [todos(["completed", "completed", "in_progress"])],
          },
          {
            text: "Third.",
            chunk_delay_ms: 20,
            tool_calls: [todos(["completed", "completed", "completed"])],
          },
          { text: "All three steps are done.", chunk_delay_ms: 20 },
        ],
      });
      const progress = await recordTexts(page, "todo-progress");
      await sendMessage(page, "Do the three steps");

      // The recorder sees every value shown, however briefly; polling the page could miss one.
      await expect.poll(() => progress.recorded(), { timeout: 15_000 }).toContain("0/3");
      await screenshot(page, "d-todos-planned");
      await waitForRunState(page, "idle");
      expect(await page.getByTestId("todo-progress").textContent()).toBe("3/3");
      expect(
        await page
          .getByTestId("todo")
          .evaluateAll((items) => (items as unknown as PageElement[]).map((item) => item.dataset.status)),
      ).toEqual(["completed", "completed", "completed"]);
      expect(await progress.recorded()).toEqual(["0/3", "1/3", "2/3", "3/3"]);
      expect(await page.locator('[data-testid="tool-card"][data-state="completed"]').count()).toBe(4);
      await screenshot(page, "d-todos-done");
      expectNoPageErrors();
    });

    it("stops a running command: back to idle, the card skipped, a Stopped notice", async () => {
      const { page } = await start({
        turns: [
          { tool_calls: [{ name: "run_terminal_cmd", arguments: { command: "sleep 30" } }] },
          { text: "This turn is never requested." },
        ],
      });
      await sendMessage(page, "Wait a while");

      const card = toolCard(page, "run_terminal_cmd");
      await waitForCardState(card, "executing");
      await screenshot(page, "e-running");
      const stoppedAt = Date.now();
      await page.getByTestId("stop").click();
      await waitForRunState(page, "idle", 5_000);
      expect(Date.now() - stoppedAt).toBeLessThan(5_000);
      await waitForCardState(card, "skipped", 3_000);
      expect(await texts(page.getByTestId("notice"))).toContain("Stopped.");
      expect(await page.getByTestId("stop").count()).toBe(0);
      expect(served!.llm.turnsServed()).toBe(1);
      await screenshot(page, "e-stopped");
      expectNoPageErrors();
    });

    it("restores a checkpoint: files and conversation go back to before that message", async () => {
      const edit = (from: string, to: string) => ({
        name: "edit_file",
        arguments: { path: "counter.txt", old_string: from, new_string: to },
      });
      const { page, root } = await start({
        approvalMode: "yolo",
        files: { "counter.txt": "one\n" },
        turns: [
          read("counter.txt"),
          { tool_calls: [edit("one", "two")] },
          { text: "Changed to two." },
          { tool_calls: [edit("two", "three")] },
          { text: "Changed to three." },
        ],
      });
      const counter = () => readFileSync(join(root, "counter.txt"), "utf8");
      await sendMessage(page, "Make it two");
      await page.getByTestId("assistant-message").filter({ hasText: "Changed to two." }).waitFor();
      await waitForRunState(page, "idle");
      expect(counter()).toBe("two\n");
      await sendMessage(page, "Make it three");
      await page.getByTestId("assistant-message").filter({ hasText: "Changed to three." }).waitFor();
      await waitForRunState(page, "idle");
      expect(counter()).toBe("three\n");
      await screenshot(page, "f-before-restore");

      const dialogs: string[] = [];
      page.once("dialog", (dialog) => {
        dialogs.push(dialog.type());
        void dialog.accept();
      });
      await page.getByTestId("user-message").nth(1).getByTestId("restore-checkpoint").click();
      // A restore runs git over the project: a busy machine needs more than the default second.
      await expect.poll(() => page.getByTestId("user-message").count(), { timeout: 15_000 }).toBe(1);
      expect(dialogs).toEqual(["confirm"]);
      await expect.poll(counter, { timeout: 15_000 }).toBe("two\n");
      await page.getByTestId("assistant-message").filter({ hasText: "Changed to two." }).waitFor();
      expect(await userTexts(page)).toEqual(["Make it two"]);
      expect(await texts(page.getByTestId("assistant-message"))).toEqual(["Changed to two."]);
      expect(
        await page
          .getByTestId("tool-card")
          .evaluateAll((cards) => (cards as unknown as PageElement[]).map((card) => card.dataset.tool)),
      ).toEqual(["read_file", "edit_file"]);
      // The reopened session's stored message can still be restored.
      await page.getByTestId("user-message").first().getByTestId("restore-checkpoint").waitFor();
      await screenshot(page, "f-restored");
      expectNoPageErrors();
    });

    it("completes an @-mention from the project, switches mode with Shift+Tab, and sends with Enter", async () => {
      const { page } = await start({
        files: { "src/app.ts": "export const app = 1;\n", "README.md": "# App\n" },
        turns: [{ text: "It exports app." }],
      });
      const input = page.getByTestId("message-input");
      await input.pressSequentially("What is in @src/ap");
      const items = page.getByTestId("mention-item");
      await items.filter({ hasText: "src/app.ts" }).first().waitFor();
      expect((await texts(items)).some((text) => text.includes("src/app.ts"))).toBe(true);
      // The highlighted item is the file; Enter takes it instead of sending.
      while (
        !(
          (await page.locator('[data-testid="mention-item"][aria-selected="true"]').textContent()) ?? ""
        ).includes("src/app.ts")
      ) {
        await input.press("ArrowDown");
      }
      await screenshot(page, "h-mention");
      await input.press("Enter");
      expect(await input.inputValue()).toBe("What is in @src/app.ts ");

      expect(await page.getByTestId("mode-select").inputValue()).toBe("agent");
      await input.press("Shift+Tab");
      expect(await page.getByTestId("mode-select").inputValue()).toBe("plan");

      await input.press("Enter");
      await page.getByTestId("assistant-message").filter({ hasText: "It exports app." }).waitFor();
      await waitForRunState(page, "idle");
      // The model got the file the mention named, in the mode chosen from the keyboard.
      const request = JSON.stringify(served!.llm.requests[0]?.body);
      expect(request).toContain("export const app = 1;");
      expect(request).toContain("What is in @src/app.ts");
      expect(request).toContain("# Mode: plan");
      expect(await page.getByTestId("mode-select").inputValue()).toBe("plan");
      expectNoPageErrors();
    });

    it("asks the user's question in a card and hands the chosen answer back to the model", async () => {
      const { page } = await start({
        turns: [
          {
            tool_calls: [
              {
                name: "ask_user",
                arguments: {
                  questions: [{ question: "Which database?", options: ["SQLite", "PostgreSQL"] }],
                },
              },
            ],
          },
          { text: "Going with the answer." },
        ],
      });
      await sendMessage(page, "Set up storage");
      const card = page.getByTestId("question-card");
      await card.waitFor();
      expect(await card.textContent()).toContain("Which database?");
      expect(await page.getByTestId("run-state").textContent()).toBe("Waiting for you");
      await card.getByRole("button", { name: "PostgreSQL" }).click();
      await screenshot(page, "i-question");
      await card.getByRole("button", { name: "Answer" }).click();
      await page.getByTestId("assistant-message").filter({ hasText: "Going with the answer." }).waitFor();
      await waitForRunState(page, "idle");
      expect(await card.count()).toBe(0);
      await waitForCardState(toolCard(page, "ask_user"), "completed");
      // The second request carries the answer in the ask_user result (the options alone are in the call).
      const messages = (served!.llm.requests[1]?.body as { messages: { role: string; content: unknown }[] })
        .messages;
      const result = messages.filter((message) => message.role === "tool").map((message) => message.content);
      expect(result).toHaveLength(1);
      expect(String(result[0])).toContain("PostgreSQL");
      expect(String(result[0])).not.toContain("SQLite");
      expectNoPageErrors();
    });

    it("shows the run's trace, and stores a provider key from the settings without ever showing it", async () => {
      const { page } = await start({
        turns: [read("README.md"), { text: "Read it." }],
        files: { "README.md": "# R\n" },
      });
      await sendMessage(page, "Read the readme");
      await page.getByTestId("assistant-message").filter({ hasText: "Read it." }).waitFor();
      await waitForRunState(page, "idle");

      await page.getByTestId("tab-trace").click();
      const spans = page.getByTestId("trace-span");
      await spans.first().waitFor();
      const names = await spans.evaluateAll((rows) =>
        (rows as unknown as PageElement[]).map((row) => row.dataset.name),
      );
      expect(names.filter((name) => name === "run")).toHaveLength(1);
      expect(names.filter((name) => name === "turn")).toHaveLength(2);
      expect(names.filter((name) => name === "llm_call")).toHaveLength(2);
      expect(names.filter((name) => name === "tool_call")).toHaveLength(1);
      await screenshot(page, "j-trace");

      await page.getByTestId("tab-settings").click();
      const keyBox = page.getByLabel("anthropic API key");
      await keyBox.fill(fakeKeys.anthropicWebUi);
      await keyBox.press("Enter");
      await page.getByTestId("settings-panel").getByText("Key saved.").waitFor();
      expect(await keyBox.inputValue()).toBe("");
      const stored = JSON.parse(readFileSync(join(served!.home, "credentials.json"), "utf8"));
      expect(stored.anthropic.apiKey).toBe(fakeKeys.anthropicWebUi);
      await page.reload();
      await page.getByTestId("tab-settings").click();
      await page.getByTestId("settings-panel").getByText("stored").first().waitFor();
      expect(await page.content()).not.toContain(fakeKeys.anthropicWebUi);
      await screenshot(page, "k-settings");
      expectNoPageErrors();
    });

    it("shows a sub-agent's card while it works, its outcome when it is done, and its own steps", async () => {
      const { page } = await start({
        files: { "src/db.ts": "export const db = 'sqlite';\n" },
        turns: [
          {
            tool_calls: [
              {
                name: "task",
                arguments: {
                  description: "Find the database",
                  prompt: "Which database does src use?",
                  agent: "explore",
                },
              },
            ],
          },
          // The sub-agent, on the same scripted server: one read, then its report.
          read("src/db.ts"),
          { text: "src/db.ts uses SQLite." },
          { text: "The project uses SQLite." },
        ],
      });
      await sendMessage(page, "Which database do we use?");
      await page.getByTestId("assistant-message").filter({ hasText: "The project uses SQLite." }).waitFor();
      await waitForRunState(page, "idle");
      const card = page.getByTestId("subagent-card");
      expect(await card.count()).toBe(1);
      expect(await card.getAttribute("data-status")).toBe("completed");
      expect(await card.textContent()).toContain("Find the database");
      expect(await card.textContent()).toContain("explore");
      await waitForCardState(toolCard(page, "task"), "completed");
      // Its own transcript: the read it made and what it found.
      await card.getByTestId("subagent-steps-toggle").click();
      const steps = card.getByTestId("subagent-step");
      expect(
        await steps.evaluateAll((items) =>
          items.map((item) => (item as unknown as { dataset: { kind: string } }).dataset.kind),
        ),
      ).toEqual(["tool", "text"]);
      expect(await steps.nth(0).textContent()).toContain("Reading src/db.ts");
      expect(await steps.nth(1).textContent()).toBe("src/db.ts uses SQLite.");
      await steps.nth(0).locator("summary").click();
      expect(await steps.nth(0).locator("pre").textContent()).toContain("export const db = 'sqlite';");
      await screenshot(page, "l-subagent");
      expectNoPageErrors();
    });

    it("shows a message sent during a run in the transcript once the run takes it", async () => {
      const { page } = await start({
        turns: [
          { tool_calls: [{ name: "run_terminal_cmd", arguments: { command: "echo checked > check.txt" } }] },
          { text: "Checked, and noted that you want it short." },
        ],
      });
      await sendMessage(page, "Run the check");
      const card = toolCard(page, "run_terminal_cmd");
      await waitForCardState(card, "pending_approval");
      await sendMessage(page, "Keep it short");
      await page.getByTestId("queued").filter({ hasText: "Queued: Keep it short" }).waitFor();

      await card.getByTestId("approve").click();
      await page
        .getByTestId("assistant-message")
        .filter({ hasText: "Checked, and noted that you want it short." })
        .waitFor();
      await waitForRunState(page, "idle");
      expect(await page.getByTestId("queued").count()).toBe(0);
      expect(await userTexts(page)).toEqual(["Run the check", "Keep it short"]);
      await screenshot(page, "m-queued-delivered");

      await page.reload();
      await page.getByTestId("app").waitFor();
      await page
        .getByTestId("assistant-message")
        .filter({ hasText: "noted that you want it short" })
        .waitFor();
      expect(await userTexts(page)).toEqual(["Run the check", "Keep it short"]);
      expect(await page.getByTestId("queued").count()).toBe(0);
      expectNoPageErrors();
    });

    it("shows a failed command's exit code, new files while the run goes on, and checkpoints by what came next", async () => {
      const { page } = await start({
        turns: [
          {
            tool_calls: [
              { name: "run_terminal_cmd", arguments: { command: "echo broken > out.txt; exit 3" } },
            ],
          },
          { tool_calls: [{ name: "run_terminal_cmd", arguments: { command: "echo again > again.txt" } }] },
          { text: "The check failed with exit code 3." },
        ],
      });
      await sendMessage(page, "Run the failing check");
      const card = toolCard(page, "run_terminal_cmd");
      await waitForCardState(card, "pending_approval");
      await card.getByTestId("approve").click();
      await waitForCardState(card, "completed");
      expect(await card.getAttribute("data-exit-code")).toBe("3");
      expect(await card.getByTestId("tool-state").textContent()).toBe("Exit 3");
      expect((await card.getAttribute("class"))?.split(" ")).toContain("command-failed");

      // Mid-run, the file the command wrote is already in the tree.
      const second = toolCard(page, "run_terminal_cmd", 1);
      await waitForCardState(second, "pending_approval");
      await page.locator('[data-testid="file-node"][data-path="out.txt"]').waitFor();
      await second.getByTestId("approve").click();
      await waitForCardState(second, "completed");
      await waitForRunState(page, "idle");
      await page.locator('[data-testid="file-node"][data-path="again.txt"]').waitFor();
      expect(await second.getByTestId("tool-state").textContent()).toBe("Done");
      // The checkpoints say what they were taken before, newest first.
      const labels = [
        "Before `echo again > again.txt`",
        "Before `echo broken > out.txt; exit 3`",
        "Before “Run the failing check”",
      ];
      await expect.poll(() => texts(page.getByTestId("checkpoint-label"))).toEqual(labels);
      await screenshot(page, "n-command-failed");

      await page.reload();
      await page.getByTestId("app").waitFor();
      const reloaded = toolCard(page, "run_terminal_cmd");
      await waitForCardState(reloaded, "completed");
      expect(await reloaded.getByTestId("tool-state").textContent()).toBe("Exit 3");
      await expect.poll(() => texts(page.getByTestId("checkpoint-label"))).toEqual(labels);
      expectNoPageErrors();
    });

    it("shows one state and one mode everywhere, through an approval, Shift+Tab, a restore and a reload", async () => {
      const { page, root, sessionId } = await start({
        turns: [
          { tool_calls: [{ name: "run_terminal_cmd", arguments: { command: "echo a > a.txt" } }] },
          { text: "Wrote a.txt." },
          { text: "Here is a plan." },
        ],
      });
      const row = page.locator(`[data-testid="session-row"][data-id="${sessionId}"]`);
      const badge = row.getByTestId("session-state");
      const rowMode = row.getByTestId("session-mode");
      const statusState = () => page.getByTestId("status-bar").getAttribute("data-state");
      const steps = () => texts(page.locator(".tool-step"));

      await sendMessage(page, "Write a.txt");
      const card = toolCard(page, "run_terminal_cmd");
      await waitForCardState(card, "pending_approval");
      expect(await statusState()).toBe("awaiting_approval");
      await expect.poll(() => badge.textContent()).toBe("awaiting approval");
      await card.getByTestId("approve").click();
      await page.getByTestId("assistant-message").filter({ hasText: "Wrote a.txt." }).waitFor();
      await waitForRunState(page, "idle");
      await expect.poll(() => badge.textContent()).toBe("idle");
      expect(await steps()).toEqual(["Step 1/1"]);

      const input = page.getByTestId("message-input");
      await input.press("Shift+Tab");
      expect(await page.getByTestId("mode-select").inputValue()).toBe("plan");
      await expect.poll(() => rowMode.textContent()).toBe("plan");
      await sendMessage(page, "Plan the next step");
      await page.getByTestId("assistant-message").filter({ hasText: "Here is a plan." }).waitFor();
      await waitForRunState(page, "idle");

      // Seen in the page however briefly: the mode falling back to agent while a restore reloads.
      const agentAgain = await watchSelector(
        page,
        '[data-testid="mode-select"] option[value="agent"]:checked',
      );
      page.once("dialog", (dialog) => void dialog.accept());
      await page.getByTestId("user-message").nth(1).getByTestId("restore-checkpoint").click();
      await expect.poll(() => page.getByTestId("user-message").count(), { timeout: 15_000 }).toBe(1);
      expect(await page.getByTestId("mode-select").inputValue()).toBe("plan");
      await expect.poll(() => rowMode.textContent()).toBe("plan");
      expect(await steps()).toEqual(["Step 1/1"]);

      // From the checkpoints panel: the files before the command, the conversation as it is.
      const before = page.getByTestId("checkpoint-row").filter({ hasText: "Before `echo a > a.txt`" });
      await before.getByRole("button", { name: "Restore" }).click();
      await before.getByRole("button", { name: "Confirm restore" }).click();
      await expect.poll(() => existsSync(join(root, "a.txt")), { timeout: 15_000 }).toBe(false);
      await waitForRunState(page, "idle");
      expect(await page.getByTestId("mode-select").inputValue()).toBe("plan");
      await expect.poll(() => rowMode.textContent()).toBe("plan");
      await expect.poll(steps).toEqual(["Step 1/1"]);
      expect(await agentAgain.seen()).toBe(false);
      await screenshot(page, "o-one-state-restored");

      await page.reload();
      await page.getByTestId("app").waitFor();
      await toolCard(page, "run_terminal_cmd").waitFor();
      expect(await page.getByTestId("mode-select").inputValue()).toBe("plan");
      await expect.poll(() => rowMode.textContent()).toBe("plan");
      await expect.poll(() => badge.textContent()).toBe("idle");
      expect(await steps()).toEqual(["Step 1/1"]);
      expectNoPageErrors();
    });

    it("points a rejected key to Settings, not to a command-line flag", async () => {
      const { page } = await start({ turns: [{ error: { status: 401 } }] });
      await sendMessage(page, "Hello");
      const notice = page.getByTestId("notice").filter({ hasText: "E_LLM_AUTH" });
      await notice.waitFor();
      const text = (await notice.textContent()) ?? "";
      expect(text).toContain("rejected the credentials (HTTP 401)");
      // The harness gives lathe serve its key in the environment, which a key saved in Settings cannot beat.
      expect(text).toContain(
        "The key in use came from OPENAI_API_KEY. Correct OPENAI_API_KEY where lathe serve runs, or unset it and add a key for openai in Settings → Providers and keys.",
      );
      expect(text).not.toContain("--api-key");
      await notice.getByTestId("open-settings").click();
      expect(await page.getByTestId("tab-settings").getAttribute("class")).toBe("active");
      await page.getByLabel("openai API key").waitFor();
      await screenshot(page, "p-key-rejected");
      expectNoPageErrors();
    });

    it("lays the page out from 700 px to 1440 px: side panels narrow, then become drawers", async () => {
      const { page, sessionId } = await start({ turns: [{ text: "The project has three packages." }] });
      await sendMessage(page, "Summarize the architecture of this project for a new developer");
      await page.getByTestId("assistant-message").filter({ hasText: "three packages" }).waitFor();
      await waitForRunState(page, "idle");
      const width = async (selector: string) => (await page.locator(selector).boundingBox())?.width ?? 0;
      const pageScrollWidth = () =>
        page.evaluate(
          () =>
            (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document
              .documentElement.scrollWidth,
        );
      const title = page.locator(`[data-testid="session-row"][data-id="${sessionId}"] .lp-row-title`);
      const clipped = () =>
        title.evaluate((element) => {
          const box = element as unknown as { scrollHeight: number; clientHeight: number };
          return box.scrollHeight > box.clientHeight;
        });

      await page.setViewportSize({ width: 1440, height: 900 });
      // The status bar says how full the model's context is and where compaction starts.
      const gauge = page.getByTestId("context-gauge");
      await gauge.waitFor();
      expect(Number(await gauge.getAttribute("data-used"))).toBeGreaterThan(0);
      expect(await gauge.textContent()).toMatch(/^Context [\d.]+k? \/ \d+k · compacts at \d+k$/);
      expect(await width(".center")).toBeGreaterThanOrEqual(800);
      expect(await page.locator(".left-side").isVisible()).toBe(true);
      expect(await page.locator(".right-side").isVisible()).toBe(true);
      expect(await page.getByTestId("toggle-left").isVisible()).toBe(false);
      expect(await pageScrollWidth()).toBeLessThanOrEqual(1440);
      await screenshot(page, "q-layout-1440");

      await page.setViewportSize({ width: 1100, height: 800 });
      expect(await width(".center")).toBeGreaterThanOrEqual(580);
      expect(await page.locator(".right-side").isVisible()).toBe(true);

      for (const viewport of [800, 700]) {
        await page.setViewportSize({ width: viewport, height: 800 });
        expect(await page.locator(".left-side").isVisible()).toBe(false);
        expect(await page.locator(".right-side").isVisible()).toBe(false);
        expect(await width(".center")).toBeGreaterThanOrEqual(viewport - 20);
        expect(await pageScrollWidth()).toBeLessThanOrEqual(viewport);
      }
      await page.getByTestId("toggle-left").click();
      await title.waitFor();
      expect(await clipped()).toBe(false);
      await screenshot(page, "q-layout-700-sessions");
      await title.click();
      expect(await page.locator(".left-side").isVisible()).toBe(false);

      await page.getByTestId("toggle-right").click();
      const panel = await page.locator(".right-side").boundingBox();
      expect(panel!.x + panel!.width).toBeLessThanOrEqual(700);
      await page.getByTestId("tab-settings").click();
      await page.getByLabel("openai API key").waitFor();
      await screenshot(page, "q-layout-700-panels");
      await page.locator(".drawer-backdrop").click({ position: { x: 20, y: 300 } });
      expect(await page.locator(".right-side").isVisible()).toBe(false);
      await screenshot(page, "q-layout-700");
      expectNoPageErrors();
    });

    it("reviews a run's changes: accepts a hunk, rejects another and a deletion made by a command, undoes", async () => {
      const numbered = (change: Record<number, string> = {}) =>
        Array.from({ length: 30 }, (_, index) => `${change[index + 1] ?? `line ${index + 1}`}\n`).join("");
      const { page, root } = await start({
        approvalMode: "yolo",
        files: { "app.ts": numbered(), "notes.md": "# Notes\n" },
        turns: [
          read("app.ts"),
          {
            tool_calls: [
              {
                name: "write_file",
                arguments: { path: "app.ts", contents: numbered({ 3: "three", 20: "twenty" }) },
              },
            ],
          },
          { tool_calls: [{ name: "run_terminal_cmd", arguments: { command: "rm notes.md" } }] },
          { text: "Done." },
        ],
      });
      const onDisk = (file: string) =>
        existsSync(join(root, file)) ? readFileSync(join(root, file), "utf8") : undefined;
      await sendMessage(page, "Tidy up");
      await page.getByTestId("assistant-message").filter({ hasText: "Done." }).waitFor();
      await waitForRunState(page, "idle");

      await page.getByTestId("tab-changes").click();
      const file = (path: string) => page.locator(`[data-testid="changed-file"][data-path="${path}"]`);
      await file("app.ts").waitFor();
      expect(await texts(page.getByTestId("changes-summary").locator("span").first())).toEqual(["2 files"]);
      expect(await file("app.ts").getAttribute("data-status")).toBe("modified");
      expect(await file("notes.md").getAttribute("data-status")).toBe("deleted");
      await screenshot(page, "r-changes");

      await file("app.ts").locator(".lp-change-path").click();
      const hunks = file("app.ts").getByTestId("change-hunk");
      await expect.poll(() => hunks.count()).toBe(2);
      await hunks.nth(0).getByTestId("accept-hunk").click();
      expect(await hunks.nth(0).getAttribute("data-accepted")).toBe("true");
      await hunks.nth(1).getByTestId("reject-hunk").click();
      await expect.poll(() => onDisk("app.ts")).toBe(numbered({ 3: "three" }));

      await file("notes.md").getByTestId("reject-file").click();
      await expect.poll(() => onDisk("notes.md")).toBe("# Notes\n");
      await page.getByTestId("undo-rejection").waitFor();
      // What is left of app.ts is the hunk accepted before: it stays accepted.
      await expect.poll(() => file("notes.md").count()).toBe(0);
      expect(await file("app.ts").getAttribute("data-accepted")).toBe("true");
      await screenshot(page, "r-changes-rejected");

      await page.getByTestId("undo-rejection").getByRole("button", { name: "Undo" }).click();
      await expect.poll(() => onDisk("notes.md"), { timeout: 15_000 }).toBeUndefined();
      expect(onDisk("app.ts")).toBe(numbered({ 3: "three" }));
      expectNoPageErrors();
    });

    it("keeps a base URL per provider in Settings, offers the models it can use, and shows that Ollama needs no key", async () => {
      const { page } = await start({ turns: [] });
      await page.getByTestId("tab-settings").click();
      await page.getByLabel("ollama base URL").waitFor();
      expect(await page.getByLabel("ollama API key").count()).toBe(0);
      expect(await page.getByText("needs no key").count()).toBe(1);

      // The harness's own base URL for openai is there, and stays beside the new one.
      const openai = `${served!.llm.url}/v1`;
      expect(await page.getByLabel("openai base URL").inputValue()).toBe(openai);
      const url = page.getByLabel("openai-compatible base URL");
      await url.fill("http://127.0.0.1:1234/v1");
      await url.press("Enter");
      const stored = () =>
        (JSON.parse(readFileSync(join(served!.home, "settings.json"), "utf8")) as { baseUrls?: unknown })
          .baseUrls;
      await expect.poll(stored).toEqual({ openai, "openai-compatible": "http://127.0.0.1:1234/v1" });
      await screenshot(page, "s-settings-base-url");
      // The default model offers the catalog's models of the providers with a key.
      const choices = await page
        .getByTestId("model-choices")
        .locator("option")
        .evaluateAll((options) => options.map((option) => (option as unknown as { value: string }).value));
      expect(choices).toContain("openai:gpt-4.1");
      expect(choices.every((choice) => choice.startsWith("openai:"))).toBe(true);

      // Emptied and saved, the base URL goes; the others stay.
      await url.fill("");
      await url.press("Enter");
      await expect.poll(stored).toEqual({ openai });
      // With the last one, the whole field goes.
      await page.getByLabel("openai base URL").fill("");
      await page.getByLabel("openai base URL").press("Enter");
      await expect.poll(stored).toBeUndefined();
      expectNoPageErrors();
    });

    it("adds an MCP server to the user's mcp.json from Settings, and removes it", async () => {
      const { page } = await start({ turns: [] });
      await page.getByTestId("tab-settings").click();
      const userFile = join(served!.home, "mcp.json");
      const servers = () =>
        existsSync(userFile)
          ? (JSON.parse(readFileSync(userFile, "utf8")) as { mcpServers: Record<string, unknown> }).mcpServers
          : undefined;

      await page.getByLabel("MCP server name").fill("docs");
      await page.getByLabel("MCP server command or URL").fill("node docs-server.js --port 7");
      await page.getByTestId("add-mcp-server").getByRole("button", { name: "Add" }).click();
      await expect
        .poll(servers)
        .toEqual({ docs: { command: "node", args: ["docs-server.js", "--port", "7"] } });
      const row = page.getByTestId("mcp-server-docs");
      await row.waitFor();
      expect(await row.textContent()).toContain("node docs-server.js --port 7");

      // A name taken already is refused, with the reason, and the file stays as it was.
      await page.getByLabel("MCP server name").fill("docs");
      await page.getByLabel("MCP server command or URL").fill("https://docs.example/mcp");
      await page.getByTestId("add-mcp-server").getByRole("button", { name: "Add" }).click();
      await page.getByTestId("add-mcp-server").getByText("already in").waitFor();
      expect(Object.keys(servers() ?? {})).toEqual(["docs"]);
      await screenshot(page, "t-settings-mcp");

      await row.getByTestId("remove-mcp-server").click();
      await expect.poll(servers).toEqual({});
      await row.waitFor({ state: "detached" });
      expectNoPageErrors();
    });

    it("reopens the same session after a reload mid-run, and the run goes on", async () => {
      const { page, root, sessionId } = await start({
        files: { "config.json": '{ "debug": false }\n' },
        turns: [
          { text: "I will turn debugging on.", tool_calls: [read("config.json").tool_calls[0]!] },
          {
            tool_calls: [
              {
                name: "edit_file",
                arguments: { path: "config.json", old_string: '"debug": false', new_string: '"debug": true' },
              },
            ],
          },
          { text: "Debugging is on." },
        ],
      });
      await sendMessage(page, "Turn debugging on");
      await waitForCardState(toolCard(page, "edit_file"), "pending_approval");
      expect(new URL(page.url()).hash).toContain(`session=${sessionId}`);

      await page.reload();
      await page.getByTestId("app").waitFor();
      await page.locator(`[data-testid="chat"][data-session="${sessionId}"]`).waitFor();
      const card = toolCard(page, "edit_file");
      await waitForCardState(card, "pending_approval");
      await waitForCardState(toolCard(page, "read_file"), "completed");
      expect(await userTexts(page)).toEqual(["Turn debugging on"]);
      await page.getByTestId("assistant-message").filter({ hasText: "I will turn debugging on." }).waitFor();
      expect(await page.getByTestId("status-bar").getAttribute("data-state")).toBe("awaiting_approval");
      await screenshot(page, "g-reloaded");

      await card.getByTestId("approve").click();
      await waitForCardState(card, "completed");
      await page.getByTestId("assistant-message").filter({ hasText: "Debugging is on." }).waitFor();
      await waitForRunState(page, "idle");
      expect(readFileSync(join(root, "config.json"), "utf8")).toBe('{ "debug": true }\n');
      expect(await page.getByTestId("tool-card").count()).toBe(2);
      await screenshot(page, "g-completed");
      expectNoPageErrors();
    });
  },
);

/**
 * What the tests read of the page's elements, inside the page. This program has no DOM types
 * (only the empty ones React's types declare), so the elements are described here; a cast, not a
 * function, since the callbacks of `evaluateAll` run in the page.
 */
interface PageElement {
  dataset: Record<string, string | undefined>;
  textContent: string | null;
  lastElementChild: PageElement | null;
  cloneNode(deep: boolean): PageElement;
  querySelectorAll(selector: string): Iterable<{ remove(): void }>;
}

/** The text of each user message, without its restore button. */
async function userTexts(page: Page): Promise<string[]> {
  return page.getByTestId("user-message").evaluateAll((elements) =>
    (elements as unknown as PageElement[]).map((element) => {
      const copy = element.cloneNode(true);
      for (const button of copy.querySelectorAll('[data-testid="restore-checkpoint"]')) button.remove();
      return (copy.textContent ?? "").trim();
    }),
  );
}

/** The code of each diff line: its last cell's text without the +/- sign shown before it. */
async function diffLines(lines: Locator): Promise<string[]> {
  const cells = await lines.evaluateAll((rows) =>
    (rows as unknown as PageElement[]).map((row) => (row.lastElementChild ?? row).textContent ?? ""),
  );
  return cells.map((text) => text.replace(/^[-+]/, ""));
}
