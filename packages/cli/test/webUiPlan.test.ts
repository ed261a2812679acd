// "Run this plan" end to end: a real `lathe serve` on a scripted model, driven through headless
// Chromium — a plan-mode run saves its plan, and the button carries it out in agent mode.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  chromiumExecutable,
  launchChromium,
  newSession,
  openUi,
  type ServedUi,
  screenshot,
  sendMessage,
  serveUi,
  type UiPage,
  waitForRunState,
} from "./webUiHarness.js";

const noBrowser = chromiumExecutable === undefined;

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
});

const farewell = `export const farewell = (name) => \`Goodbye, \${name}!\`;\n`;

describe.skipIf(noBrowser)("Run this plan in the web UI", { timeout: 60_000 }, () => {
  it("saves a plan-mode answer as a plan, and its button runs it in agent mode", async () => {
    served = await serveUi({
      approvalMode: "yolo",
      turns: [
        { text: "1. Create farewell.js exporting `farewell`." },
        { tool_calls: [{ name: "write_file", arguments: { path: "farewell.js", contents: farewell } }] },
        { text: "Created farewell.js." },
      ],
    });
    ui = await openUi(browser!, served);
    const { page } = ui;
    await newSession(page);
    await page.getByTestId("mode-select").selectOption("plan");
    await sendMessage(page, "Plan a farewell module");

    const card = page.getByTestId("plan-card");
    await card.waitFor();
    await waitForRunState(page, "idle");
    const path = await card.getAttribute("data-path");
    expect(path).toMatch(/^\.lathe\/plans\/\d{4}-\d{2}-\d{2}-plan-a-farewell-module\.md$/);
    const plan = readFileSync(join(served.root, path!), "utf8");
    expect(plan).toBe("# Plan: Plan a farewell module\n\n1. Create farewell.js exporting `farewell`.\n");
    expect(existsSync(join(served.root, "farewell.js"))).toBe(false);
    await screenshot(page, "p-plan-saved");

    await card.getByTestId("run-plan").click();
    await page.getByTestId("assistant-message").filter({ hasText: "Created farewell.js." }).waitFor();
    await waitForRunState(page, "idle");
    expect(readFileSync(join(served.root, "farewell.js"), "utf8")).toBe(farewell);
    expect(await page.getByTestId("mode-select").inputValue()).toBe("agent");
    const request = JSON.stringify(served.llm.requests[1]?.body);
    expect(request).toContain("# Mode: agent");
    expect(request).toContain(`Carry out this plan (saved in ${path})`);
    expect(request).toContain("1. Create farewell.js exporting `farewell`.");
    expect(ui.pageErrors).toEqual([]);
  });
});
