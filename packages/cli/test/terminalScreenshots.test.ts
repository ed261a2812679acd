import { existsSync, readFileSync } from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { approvalKeys, chat, closeScriptedModels, modelArgs, scriptedModel } from "./scriptedTerminal.js";
import { closeTerminals, startTerminal, type Terminal, terminalWorkspace } from "./terminalScreen.js";
import { saveTerminalScreenshot, type TerminalScreenshot } from "./terminalScreenshot.js";
import { plantedRepository } from "./trustFixture.js";
import { chromiumExecutable, launchChromium } from "./webUiHarness.js";

const noBrowser = chromiumExecutable === undefined;
if (noBrowser) {
  console.warn(
    "terminalScreenshots.test.ts skipped: no Chromium at /usr/bin/chromium, /usr/bin/chromium-browser or /usr/bin/google-chrome (apt-get install chromium)",
  );
}

let browser: Browser | undefined;
beforeAll(async () => {
  if (!noBrowser) browser = await launchChromium();
}, 30_000);
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await closeTerminals();
  await closeScriptedModels();
});

/** Saves the screen as it is now, and checks that both files were written and the text holds `words`. */
async function screenshot(
  terminal: Terminal,
  name: string,
  words: (string | RegExp)[],
): Promise<TerminalScreenshot> {
  if (!browser) throw new Error("no browser");
  const shot = await saveTerminalScreenshot(browser, terminal, name);
  expect(existsSync(shot.pngFile)).toBe(true);
  const saved = readFileSync(shot.textFile, "utf8");
  expect(saved).toBe(`${shot.text}\n`);
  for (const word of words) {
    if (typeof word === "string") expect(saved).toContain(word);
    else expect(saved).toMatch(word);
  }
  return shot;
}

/** Width and height from a PNG's header chunk, after checking the signature. */
function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(bytes.subarray(12, 16).toString("latin1")).toBe("IHDR");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe.skipIf(noBrowser)("screenshots of the terminal UI's main states", { timeout: 60_000 }, () => {
  it("the idle prompt with the status line", async () => {
    const terminal = await chat(await scriptedModel([]));
    await terminal.waitFor(/^ready · agent · ask_first · openai:gpt-4\.1/m);
    const shot = await screenshot(terminal, "01-idle-prompt", [
      "Type a task; /help lists the commands.",
      /^› /m,
      /^ready · agent · ask_first · openai:gpt-4\.1/m,
    ]);
    // 100 × 30 cells of a 14 px monospace font, 17 px a row, and the page's padding.
    const { width, height } = pngSize(shot.pngFile);
    expect(width).toBeGreaterThanOrEqual(100 * 7);
    expect(width).toBeLessThanOrEqual(100 * 10 + 16);
    expect(height).toBe(30 * 17 + 16);
    // Text drawn, not a blank picture: a black one of this size is about 2.5 KB.
    expect(readFileSync(shot.pngFile).length).toBeGreaterThan(5_000);
  });

  it("a streamed markdown answer", async () => {
    const answer = [
      "## Plan",
      "",
      "The router checks the **path** first and answers with `JSON` when it matches.",
      "",
      "- parse the URL once",
      "- compare the path with `/items`",
      "",
      "```ts",
      "export function handler(request: Request): Response {",
      '  return new Response("not found", { status: 404 });',
      "}",
      "```",
      "",
      "Run the tests after the change.",
    ].join("\n");
    const terminal = await chat(await scriptedModel([{ text: answer, chunk_delay_ms: 5 }]));
    await terminal.submit("Write the router");
    await terminal.waitFor("Run the tests after the change.");
    await terminal.waitFor(/^ready · /m);
    await screenshot(terminal, "02-markdown-answer", [
      "› Write the router",
      "Plan",
      "The router checks the path first and answers with JSON when it matches.",
      "parse the URL once",
      "compare the path with /items",
      "export function handler(request: Request): Response {",
      'return new Response("not found", { status: 404 });',
    ]);
  });

  it("an approval of an edit, with its diff", async () => {
    const server = await scriptedModel([
      {
        tool_calls: [
          {
            name: "edit_file",
            arguments: {
              path: "src/greeting.ts",
              old_string: 'export const greeting = "hello";',
              new_string: 'export const greeting = "hello, world";',
            },
          },
        ],
      },
    ]);
    const { root, home } = await terminalWorkspace({
      "src/greeting.ts": 'export const greeting = "hello";\nexport const farewell = "bye";\n',
    });
    const terminal = await chat(server, ["--approval-mode", "manual"], { cwd: root, home });
    await terminal.submit("Greet the world");
    await terminal.waitFor(approvalKeys);
    await screenshot(terminal, "03-approval-edit", [
      "Allow edit_file src/greeting.ts?",
      /-.*export const greeting = "hello";/,
      /\+.*export const greeting = "hello, world";/,
      approvalKeys,
    ]);
  });

  it("an approval of a command", async () => {
    const server = await scriptedModel([
      { tool_calls: [{ name: "run_terminal_cmd", arguments: { command: "npm test" } }] },
    ]);
    const terminal = await chat(server);
    await terminal.submit("Run the tests");
    await terminal.waitFor(approvalKeys);
    await screenshot(terminal, "04-approval-command", [
      "Allow run_terminal_cmd npm test?",
      "$ npm test",
      approvalKeys,
    ]);
  });

  it("a question of the model's (ask_user)", async () => {
    const server = await scriptedModel([
      {
        tool_calls: [
          {
            name: "ask_user",
            arguments: { questions: [{ question: "Which database?", options: ["SQLite", "PostgreSQL"] }] },
          },
        ],
      },
    ]);
    const terminal = await chat(server);
    await terminal.submit("Set up storage");
    await terminal.waitFor("❯ SQLite");
    await screenshot(terminal, "05-question", [
      "Which database?",
      "❯ SQLite",
      "PostgreSQL",
      "Or type an answer:",
    ]);
  });

  it("the trust prompt of a folder with gated files", async () => {
    const repo = plantedRepository();
    const server = await scriptedModel([]);
    const terminal = await startTerminal({
      args: ["--cwd", repo.root, ...modelArgs(server)],
      cwd: repo.root,
      home: repo.home,
      env: { HOME: repo.userHome },
      // Wide enough that the long temporary paths do not wrap.
      cols: 220,
    });
    await terminal.waitFor("Trust this folder? [y] yes  [n] no");
    await screenshot(terminal, "06-trust-prompt", [
      `${repo.root} holds project files that run programs or grant permissions:`,
      "Trust this folder? [y] yes  [n] no",
    ]);
  });

  it("the todo checklist during a run", async () => {
    const todos = [
      { id: "1", content: "Read the router", status: "completed" },
      { id: "2", content: "Add the /items route", status: "in_progress" },
      { id: "3", content: "Run the tests", status: "pending" },
    ];
    const server = await scriptedModel([
      { tool_calls: [{ name: "todo_write", arguments: { todos } }] },
      // The run goes on, the plan in view, while the model takes its time over the next step.
      { text: "Done.", hang_ms: 60_000 },
    ]);
    const terminal = await chat(server);
    await terminal.submit("Add the items route");
    await terminal.waitFor("Run the tests");
    await terminal.waitFor(() => server.requests.length === 2);
    await screenshot(terminal, "07-todos-during-run", [
      "Read the router",
      "Add the /items route",
      "Run the tests",
    ]);
  });

  it("/help", async () => {
    const terminal = await chat(await scriptedModel([]));
    await terminal.submit("/help");
    await terminal.waitFor("Commands:");
    await screenshot(terminal, "08-help", ["Commands:", "/help", "/model", "/compact", "/exit"]);
  });
});
