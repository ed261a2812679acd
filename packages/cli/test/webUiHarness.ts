import { type ChildProcess, spawn } from "node:child_process";
import { accessSync, constants, mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { type FakeLlm, type FakeTurn, fakeKeys, startFakeLlm } from "@lathe/testkit";
import { type Browser, chromium, type Locator, type Page } from "playwright-core";
import { makeWorkspace } from "./latheProcess.js";

const latheBin = fileURLToPath(new URL("../bin/lathe.js", import.meta.url));
const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
/** Screenshots of the main states, for people to look at; `test-output/` is ignored by git. */
export const screenshotDir = join(repoRoot, "test-output", "web-ui");

/** The first Chromium found where Debian, Ubuntu and Google put it (the same places Lathe's browser tool looks). */
export const chromiumExecutable = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
].find((file) => {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
});

/**
 * Headless Chromium for the tests. No host name resolves (only IP literals work), so the page can
 * reach the local server and nothing public, whatever it tries.
 */
export function launchChromium(): Promise<Browser> {
  if (!chromiumExecutable) throw new Error("no Chromium executable");
  return chromium.launch({
    executablePath: chromiumExecutable,
    headless: true,
    args: ["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1"],
  });
}

export interface ServedUi {
  /** The printed URL, token included. */
  url: string;
  origin: string;
  token: string;
  /** The project folder (also the server's working directory). */
  root: string;
  home: string;
  llm: FakeLlm;
  /** What the server wrote to stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

export interface ServeOptions {
  turns: FakeTurn[];
  files?: Record<string, string>;
  approvalMode?: "manual" | "ask_first" | "auto_edit" | "auto" | "yolo";
  /** More environment for the server (the task database's URL, say). */
  env?: Record<string, string>;
}

/**
 * A real `lathe serve` child process in a fresh project, its OpenAI base URL pointing at a
 * scripted model server that answers with `turns`.
 */
export async function serveUi(options: ServeOptions): Promise<ServedUi> {
  const llm = await startFakeLlm({ script: { turns: options.turns } });
  const ws = await makeWorkspace(options.files ?? {}, {
    model: "openai:gpt-4.1",
    baseUrls: { openai: `${llm.url}/v1` },
    approvalMode: options.approvalMode ?? "ask_first",
    sandbox: { mode: "off" },
  });
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !/_API_KEY$/.test(key) && key !== "LATHE_MODEL") env[key] = value;
  }
  Object.assign(env, { LATHE_HOME: ws.home, OPENAI_API_KEY: fakeKeys.openai }, options.env);
  const child = spawn(process.execPath, [latheBin, "serve"], {
    cwd: ws.root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const close = async () => {
    await stopChild(child);
    await llm.close();
  };
  try {
    const line = await new Promise<string>((resolve, reject) => {
      const lines = createInterface({ input: child.stdout! });
      lines.once("line", resolve);
      child.once("exit", (code) =>
        reject(new Error(`lathe serve exited (${code}) before serving:\n${stderr}`)),
      );
      const timer = setTimeout(
        () => reject(new Error(`lathe serve printed no URL within 15 s:\n${stderr}`)),
        15_000,
      );
      lines.once("line", () => clearTimeout(timer));
    });
    const url = new URL(line.replace(/^Lathe is serving at /, ""));
    return {
      url: url.href,
      origin: url.origin,
      token: url.searchParams.get("token") ?? "",
      root: ws.root,
      home: ws.home,
      llm,
      stderr: () => stderr,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}

export interface UiPage {
  page: Page;
  /** Uncaught exceptions in the page, as `pageerror` reported them. */
  pageErrors: string[];
  close(): Promise<void>;
}

/** A fresh browser context and page on the served UI, past the token-for-cookie redirect. */
export async function openUi(browser: Browser, served: ServedUi): Promise<UiPage> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const pageErrors: string[] = [];
  page.on("pageerror", (error) => pageErrors.push(error.stack ?? error.message));
  await page.goto(`${served.url}#project=${encodeURIComponent(served.root)}`);
  await page.getByTestId("app").waitFor();
  return { page, pageErrors, close: () => context.close() };
}

/**
 * Clicks "new session" and waits for its chat; returns the session id. With `previous`, the session
 * shown until now, it waits for the chat to show another one.
 */
export async function newSession(page: Page, previous?: string): Promise<string> {
  await page.getByTestId("new-session").click();
  const chat = page.locator(
    previous === undefined
      ? '[data-testid="chat"][data-session]'
      : `[data-testid="chat"][data-session]:not([data-session="${previous}"])`,
  );
  await chat.waitFor();
  const id = await chat.getAttribute("data-session");
  if (!id) throw new Error("the chat names no session");
  await page.locator('[data-testid="connection"]', { hasText: "live" }).waitFor();
  return id;
}

/** Types a message and sends it with Enter. */
export async function sendMessage(page: Page, text: string): Promise<void> {
  const input = page.getByTestId("message-input");
  await input.fill(text);
  await input.press("Enter");
}

/** The tool card of the given tool (the `nth` one, from 0). */
export function toolCard(page: Page, tool: string, nth = 0): Locator {
  return page.locator(`[data-testid="tool-card"][data-tool="${tool}"]`).nth(nth);
}

/** Waits until the card shows `state`, failing with the state it is stuck in. */
export async function waitForCardState(card: Locator, state: string, timeout = 15_000): Promise<void> {
  try {
    await card.and(card.page().locator(`[data-state="${state}"]`)).waitFor({ timeout });
  } catch (error) {
    const actual = await card.getAttribute("data-state", { timeout: 500 }).catch(() => "(no card)");
    const shown = await card.textContent({ timeout: 500 }).catch(() => "");
    throw new Error(`tool card never reached ${state}; it is ${actual}: ${shown}\n${String(error)}`);
  }
}

/** Waits until the status bar shows the run state (`idle` once a run is over). */
export async function waitForRunState(page: Page, state: string, timeout = 15_000): Promise<void> {
  await page.locator(`[data-testid="status-bar"][data-state="${state}"]`).waitFor({ timeout });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: join(screenshotDir, `${name}.png`) });
}

/** The trimmed texts of every element the locator matches. */
export async function texts(locator: Locator): Promise<string[]> {
  return (await locator.allTextContents()).map((text) => text.trim());
}

/** What the in-page recorder uses of the DOM (the tests compile without the DOM library). */
interface PageGlobals {
  document: {
    body: unknown;
    querySelector(selector: string): { textContent: string | null } | null;
  };
  performance: { now(): number };
  MutationObserver: new (callback: () => void) => { observe(target: unknown, options: object): void };
  [recording: string]: unknown;
}

/**
 * Starts recording, in the page, every distinct text the element with this test id shows, in
 * order, so values that flash by between two polls are seen too. `recorded` reads them back.
 */
export async function recordTexts(page: Page, testId: string): Promise<{ recorded(): Promise<string[]> }> {
  const key = `__texts_${testId.replace(/\W/g, "_")}`;
  await page.evaluate(
    ({ key, testId }) => {
      const page = globalThis as unknown as PageGlobals;
      const seen: string[] = [];
      page[key] = seen;
      const look = () => {
        const text = page.document.querySelector(`[data-testid="${testId}"]`)?.textContent?.trim();
        if (text !== undefined && seen.at(-1) !== text) seen.push(text);
      };
      look();
      new page.MutationObserver(look).observe(page.document.body, {
        subtree: true,
        childList: true,
        characterData: true,
      });
    },
    { key, testId },
  );
  return {
    recorded: () =>
      page.evaluate((key) => ((globalThis as unknown as PageGlobals)[key] as string[]) ?? [], key),
  };
}

/**
 * Starts watching, in the page, for the first moment an element matches `selector`, however
 * briefly; `seen` tells whether it has matched yet.
 */
export async function watchSelector(page: Page, selector: string): Promise<{ seen(): Promise<boolean> }> {
  const key = `__seen_${Math.random().toString(36).slice(2)}`;
  await page.evaluate(
    ({ key, selector }) => {
      const page = globalThis as unknown as PageGlobals;
      const look = () => {
        if (page[key] === undefined && page.document.querySelector(selector))
          page[key] = page.performance.now();
      };
      look();
      new page.MutationObserver(look).observe(page.document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        characterData: true,
      });
    },
    { key, selector },
  );
  return {
    seen: () => page.evaluate((key) => (globalThis as unknown as PageGlobals)[key] !== undefined, key),
  };
}
