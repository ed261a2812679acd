// The trust prompt of the web UI, end to end: a real `lathe serve` on a project that plants a
// hook, driven through headless Chromium. The hook only creates a marker file outside the project.

import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
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

describe.skipIf(noBrowser)("the web UI's trust prompt", { timeout: 60_000 }, () => {
  it("asks before a project's hooks run: declined, they never run; trusted, they run in the next session", async () => {
    const markers = mkdtempSync(join(tmpdir(), "lathe-web-trust-markers-"));
    const marker = join(markers, "session-start");
    const hooks = {
      hooks: { SessionStart: [{ hooks: [{ type: "command", command: `touch ${marker}` }] }] },
    };
    served = await serveUi({
      files: { ".lathe/hooks.json": JSON.stringify(hooks), "README.md": "A cloned project.\n" },
      turns: [{ text: "First answer." }, { text: "Second answer." }],
    });
    ui = await openUi(browser!, served);
    const { page } = ui;

    const prompt = page.getByTestId("trust-prompt");
    await prompt.waitFor();
    expect(await prompt.textContent()).toContain(".lathe/hooks.json");
    expect(await prompt.textContent()).toContain(`touch ${marker}`);
    await screenshot(page, "trust-prompt");

    await page.getByTestId("trust-decline").click();
    await page.getByTestId("trust-badge").waitFor();
    const untrusted = await newSession(page);
    await sendMessage(page, "Hello");
    await page.getByTestId("assistant-message").filter({ hasText: "First answer." }).waitFor();
    await waitForRunState(page, "idle");
    expect(existsSync(marker)).toBe(false);

    await page.getByTestId("trust-badge").click();
    await page.getByTestId("trust-accept").click();
    await prompt.waitFor({ state: "detached" });
    expect(await page.getByTestId("trust-badge").count()).toBe(0);
    await newSession(page, untrusted);
    await sendMessage(page, "Hello again");
    await page
      .getByTestId("assistant-message")
      .filter({ hasText: "Second answer." })
      .waitFor({ timeout: 30_000 })
      .catch((error: unknown) => {
        const asked = served?.llm.requests.length;
        throw new Error(`${String(error)}\nmodel requests: ${asked}\nserver stderr:\n${served?.stderr()}`);
      });
    await waitForRunState(page, "idle");
    expect(existsSync(marker)).toBe(true);
    expect(ui.pageErrors).toEqual([]);
  });
});
