// Web UI (SPEC §8 targets): a real `lathe serve` on scripted models, its built UI in headless
// Chromium. Measures (1) frames per second while one message streams 5,000 tokens/s of markdown
// with code blocks for ~5 s (target ≥ 30), (2) how long a 100-file diff waiting for approval takes
// to be painted, and, once applied, the Changes view listing it (targets < 500 ms), (3) first contentful paint of a fresh load (target < 1 s) and
// (4) the page's JS heap once a stored session of 200 messages is loaded. Every browser request
// stays on 127.0.0.1: no host name resolves in the browser.
import { spawn } from "node:child_process";
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { fakeKeys, startFakeLlm } from "../../packages/testkit/dist/index.js";
import { longMarkdown, patchForFiles, projectFiles, shortAnswer } from "./content.mjs";

const lathe = fileURLToPath(new URL("../../packages/cli/bin/lathe.js", import.meta.url));
const browsers = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

const streamTokensPerSecond = 5_000;
const streamSeconds = 5;
const diffFiles = 100;
const exchanges = 100;
const fcpLoads = 5;

const metrics = {
  fps: `streaming fps (rAF callbacks/s in the page while one message streams ${streamTokensPerSecond.toLocaleString("en")} tok/s of markdown + code for ~${streamSeconds} s)`,
  diffEvent: `${diffFiles}-file apply_patch diff: approval event arrives → DiffView in the DOM and painted (next frame)`,
  diffClick: `${diffFiles}-file diff: click to expand the card → DiffView painted`,
  changes: `${diffFiles}-file change applied: click the Changes tab → every file listed and painted`,
  fcp: `first-contentful-paint, fresh context, token URL load (Performance API, median of ${fcpLoads})`,
  heap: `JS heap used after loading a stored session of ${exchanges * 2} messages (CDP Performance.getMetrics JSHeapUsedSize, after GC)`,
};

export async function run() {
  const executablePath = browsers.find(isExecutable);
  if (!executablePath) {
    const note = `no Chromium found at ${browsers.join(", ")} (apt-get install chromium)`;
    console.warn(`bench ui: ${note}`);
    return [
      { metric: `skipped: ${note}`, value: null, unit: "" },
      { metric: metrics.fps, value: null, unit: "fps", target: "≥ 30", note },
      { metric: metrics.diffEvent, value: null, unit: "ms", target: "< 500", note },
      { metric: metrics.diffClick, value: null, unit: "ms", target: "< 500", note },
      { metric: metrics.changes, value: null, unit: "ms", target: "< 500", note },
      { metric: metrics.fcp, value: null, unit: "ms", target: "< 1000", note },
      { metric: metrics.heap, value: null, unit: "MB", note },
    ];
  }
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: ["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1"],
  });
  try {
    const streaming = await measureStreaming(browser);
    const diff = await measureDiff(browser);
    const paint = await measureFirstPaint(browser);
    const heap = await measureHeap(browser);
    return [
      { metric: metrics.fps, value: streaming.fps, unit: "fps", target: "≥ 30" },
      { metric: "  idle page, same measure (reference)", value: streaming.idleFps, unit: "fps" },
      { metric: "  longest frame while streaming", value: streaming.longestFrameMs, unit: "ms" },
      { metric: "  95th percentile frame while streaming", value: streaming.p95FrameMs, unit: "ms" },
      {
        metric: "  rate the page received (text in the message / streaming time)",
        value: streaming.receivedTokensPerSecond,
        unit: "tok/s",
      },
      {
        metric: "  markdown streamed / its text in the DOM at the end / streaming time",
        value: `${streaming.characters} / ${streaming.domCharacters} chars, ${streaming.seconds} s`,
        unit: "",
      },
      { metric: metrics.diffEvent, value: diff.eventToPaintMs, unit: "ms", target: "< 500" },
      { metric: metrics.diffClick, value: diff.clickToPaintMs, unit: "ms", target: "< 500" },
      { metric: metrics.changes, value: diff.changesMs, unit: "ms", target: "< 500" },
      { metric: "  files in the Changes view", value: diff.changedFiles, unit: "" },
      {
        metric: "  diff files / added lines in the DOM",
        value: `${diff.files} / ${diff.addedLines}`,
        unit: "",
      },
      { metric: metrics.fcp, value: paint.fcpMs, unit: "ms", target: "< 1000" },
      { metric: "  fastest / slowest", value: `${paint.fastestMs} / ${paint.slowestMs}`, unit: "ms" },
      { metric: "  time until the app shell is in the DOM (median)", value: paint.appMs, unit: "ms" },
      { metric: metrics.heap, value: heap.loadedMb, unit: "MB" },
      { metric: "  same page with an empty new session (reference)", value: heap.emptyMb, unit: "MB" },
      { metric: "  time to load and render that session", value: heap.loadMs, unit: "ms" },
    ];
  } finally {
    await browser.close();
  }
}

// ── (1) streaming frame rate ──────────────────────────────────────────────────────────────────

async function measureStreaming(browser) {
  const text = longMarkdown(streamTokensPerSecond * streamSeconds * 4);
  const served = await serveUi({ turns: [{ text, tokens_per_second: streamTokensPerSecond }] });
  const { page, close } = await openPage(browser, served);
  try {
    await newSession(page);
    await page.evaluate(installFrameRecorder);
    await page.waitForTimeout(1_000);
    const idle = await page.evaluate(() => window.__bench.framesSince(performance.now() - 1_000));
    const input = page.getByTestId("message-input");
    await input.fill("Write the routes.");
    await input.press("Enter");
    await page.waitForFunction(() => window.__bench.streamEnd !== undefined, null, { timeout: 120_000 });
    const result = await page.evaluate(() => {
      const { streamStart, streamEnd } = window.__bench;
      const frames = window.__bench.frames.filter((t) => t >= streamStart && t <= streamEnd);
      const gaps = frames.slice(1).map((t, i) => t - frames[i]);
      const message = document.querySelectorAll('[data-testid="assistant-message"]');
      return {
        seconds: (streamEnd - streamStart) / 1000,
        frames: frames.length,
        gaps,
        characters: message[message.length - 1]?.textContent?.length ?? 0,
      };
    });
    const sorted = [...result.gaps].sort((a, b) => a - b);
    return {
      fps: round(result.frames / result.seconds),
      idleFps: round(idle),
      longestFrameMs: round(sorted.at(-1) ?? 0),
      p95FrameMs: round(sorted[Math.floor(sorted.length * 0.95)] ?? 0),
      receivedTokensPerSecond: Math.round(text.length / 4 / result.seconds),
      characters: text.length,
      domCharacters: result.characters,
      seconds: round(result.seconds, 2),
    };
  } finally {
    await close();
    await served.close();
  }
}

/** Runs in the page: counts animation frames, and notes when the streaming message starts and ends. */
function installFrameRecorder() {
  const bench = {
    frames: [],
    streamStart: undefined,
    streamEnd: undefined,
    framesSince(from) {
      return this.frames.filter((t) => t >= from).length / ((performance.now() - from) / 1000);
    },
  };
  window.__bench = bench;
  const tick = (time) => {
    bench.frames.push(time);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  const look = () => {
    const streaming = document.querySelector('[data-testid="assistant-message"][data-streaming="true"]');
    if (streaming && bench.streamStart === undefined) bench.streamStart = performance.now();
    if (!streaming && bench.streamStart !== undefined && bench.streamEnd === undefined) {
      bench.streamEnd = performance.now();
    }
  };
  new MutationObserver(look).observe(document.body, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ["data-streaming"],
  });
}

// ── (2) a 100-file diff ───────────────────────────────────────────────────────────────────────

async function measureDiff(browser) {
  const served = await serveUi({
    files: projectFiles(diffFiles),
    turns: [
      { tool_calls: [{ name: "apply_patch", arguments: { patch: patchForFiles(diffFiles) } }] },
      // Rejected, the patch gives way to a command that changes every file: the Changes view's case.
      {
        tool_calls: [
          {
            name: "run_terminal_cmd",
            arguments: { command: "sed -i 's/value6 = /value6 = 2 * /' src/*.ts" },
          },
        ],
      },
      { text: "ok" },
    ],
  });
  const { page, close } = await openPage(browser, served, watchApprovalEvents);
  try {
    await newSession(page);
    await page.evaluate(watchForDiff);
    const input = page.getByTestId("message-input");
    await input.fill("Double values 6 and 7 everywhere.");
    await input.press("Enter");
    await page.waitForFunction(() => window.__diff.paintedAt !== undefined, null, { timeout: 60_000 });
    const first = await page.evaluate(() => ({
      eventToPaintMs: window.__diff.paintedAt - window.__approvalEventAt,
      files: document.querySelectorAll('[data-testid="diff-view"] [data-testid="diff-file"]').length,
      addedLines: document.querySelectorAll('[data-testid="diff-view"] [data-testid="diff-line-add"]').length,
    }));
    // Collapse the card, then time a click that opens it again.
    const header = page.locator('[data-testid="tool-card"] button[aria-expanded]').first();
    await header.click();
    await page.locator('[data-testid="diff-view"]').waitFor({ state: "detached" });
    await page.waitForTimeout(200);
    const clickToPaintMs = await page.evaluate(
      () =>
        new Promise((resolve) => {
          const button = document.querySelector('[data-testid="tool-card"] button[aria-expanded]');
          const clickedAt = performance.now();
          const observer = new MutationObserver(() => {
            if (!document.querySelector('[data-testid="diff-view"]')) return;
            observer.disconnect();
            requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - clickedAt), 0));
          });
          observer.observe(document.body, { subtree: true, childList: true });
          button.click();
        }),
    );
    await page.getByTestId("reject").first().click();
    // The command's change is reviewed: time a click on the Changes tab to its list of files painted.
    await page
      .locator('[data-testid="tool-card"][data-tool="run_terminal_cmd"] [data-testid="approve"]')
      .click();
    await page.locator('[data-testid="status-bar"][data-state="idle"]').waitFor({ timeout: 60_000 });
    await page.waitForTimeout(200);
    const changes = await page.evaluate(
      (expected) =>
        new Promise((resolve) => {
          const tab = document.querySelector('[data-testid="tab-changes"]');
          const clickedAt = performance.now();
          const listed = () => document.querySelectorAll('[data-testid="changed-file"]').length;
          const observer = new MutationObserver(() => {
            if (listed() < expected) return;
            observer.disconnect();
            requestAnimationFrame(() =>
              setTimeout(() => resolve({ ms: performance.now() - clickedAt, files: listed() }), 0),
            );
          });
          observer.observe(document.body, { subtree: true, childList: true });
          // Fewer files than expected never satisfy the observer: say so instead of waiting forever.
          setTimeout(() => {
            observer.disconnect();
            resolve({ ms: Number.NaN, files: listed() });
          }, 30_000);
          tab.click();
        }),
      diffFiles,
    );
    return {
      eventToPaintMs: round(first.eventToPaintMs),
      clickToPaintMs: round(clickToPaintMs),
      files: first.files,
      addedLines: first.addedLines,
      changesMs: round(changes.ms),
      changedFiles: changes.files,
    };
  } finally {
    await close();
    await served.close();
  }
}

/** Init script: notes when the first `approval_required` event reaches the page's WebSocket. */
function watchApprovalEvents() {
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        if (
          window.__approvalEventAt === undefined &&
          typeof event.data === "string" &&
          event.data.includes('"type":"approval_required"')
        ) {
          window.__approvalEventAt = performance.now();
        }
      });
    }
  };
}

/** Runs in the page: notes when a diff view first appears and when the frame after it has been painted. */
function watchForDiff() {
  const diff = { domAt: undefined, paintedAt: undefined };
  window.__diff = diff;
  const observer = new MutationObserver(() => {
    if (!document.querySelector('[data-testid="tool-card"] [data-testid="diff-view"]')) return;
    observer.disconnect();
    diff.domAt = performance.now();
    requestAnimationFrame(() =>
      setTimeout(() => {
        diff.paintedAt = performance.now();
      }, 0),
    );
  });
  observer.observe(document.body, { subtree: true, childList: true });
}

// ── (3) first paint ───────────────────────────────────────────────────────────────────────────

async function measureFirstPaint(browser) {
  const served = await serveUi({ turns: [] });
  try {
    const fcp = [];
    const app = [];
    for (let i = 0; i < fcpLoads; i++) {
      const { page, close } = await openPage(browser, served, watchAppShell);
      try {
        const entry = await page.waitForFunction(
          () => performance.getEntriesByName("first-contentful-paint")[0]?.startTime,
          null,
          { timeout: 10_000 },
        );
        fcp.push(await entry.jsonValue());
        app.push(await page.evaluate(() => window.__appAt));
      } finally {
        await close();
      }
    }
    return {
      fcpMs: round(median(fcp)),
      fastestMs: round(Math.min(...fcp)),
      slowestMs: round(Math.max(...fcp)),
      appMs: round(median(app)),
    };
  } finally {
    await served.close();
  }
}

/** Init script: notes when the app shell (`data-testid="app"`) first enters the DOM. */
function watchAppShell() {
  new MutationObserver((_, observer) => {
    if (!document.querySelector('[data-testid="app"]')) return;
    window.__appAt = performance.now();
    observer.disconnect();
  }).observe(document, { subtree: true, childList: true });
}

// ── (4) heap with a 200-message session ───────────────────────────────────────────────────────

async function measureHeap(browser) {
  const turns = Array.from({ length: exchanges }, (_, i) => ({ text: shortAnswer(i + 1) }));
  const served = await serveUi({ turns });
  try {
    const id = await storedSession(served);
    const empty = await openPage(browser, served);
    let emptyMb;
    try {
      await newSession(empty.page);
      emptyMb = await heapUsedMb(empty.page);
    } finally {
      await empty.close();
    }
    const loadStarted = performance.now();
    const { page, close } = await openPage(browser, served, undefined, `session=${id}`);
    try {
      await page.waitForFunction(
        (count) =>
          document.querySelectorAll('[data-testid="user-message"]').length === count &&
          document.querySelectorAll('[data-testid="assistant-message"] [data-testid="code-block"]').length ===
            count,
        exchanges,
        { timeout: 60_000 },
      );
      const loadMs = performance.now() - loadStarted;
      return { loadedMb: await heapUsedMb(page), emptyMb, loadMs: Math.round(loadMs) };
    } finally {
      await close();
    }
  } finally {
    await served.close();
  }
}

/** A session of `exchanges` user messages and answers made through the HTTP API, then closed so it is only stored. */
async function storedSession(served) {
  const api = async (method, route, body) => {
    const response = await fetch(`${served.origin}${route}`, {
      method,
      headers: { authorization: `Bearer ${served.token}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  const { id } = await api("POST", "/api/sessions", { projectRoot: served.root });
  for (let i = 0; i < exchanges; i++) {
    await api("POST", `/api/sessions/${id}/messages`, {
      text: `Question ${i + 1}: how do I serve /item/${i + 1}?`,
    });
    for (;;) {
      const detail = await api("GET", `/api/sessions/${id}`);
      if (detail.state === "idle" && detail.messages.length === 2 * (i + 1)) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  await api("DELETE", `/api/sessions/${id}`);
  return id;
}

async function heapUsedMb(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("HeapProfiler.enable");
  await cdp.send("HeapProfiler.collectGarbage");
  await cdp.send("Performance.enable");
  const { metrics: list } = await cdp.send("Performance.getMetrics");
  await cdp.detach();
  const used = list.find((metric) => metric.name === "JSHeapUsedSize")?.value ?? Number.NaN;
  return round(used / 2 ** 20);
}

// ── serving and pages ─────────────────────────────────────────────────────────────────────────

/** `lathe serve` (built) in a fresh project, its OpenAI base URL on a scripted model server. */
async function serveUi({ turns, files = {}, approvalMode = "ask_first" }) {
  const llm = await startFakeLlm({ script: { turns } });
  const root = mkdtempSync(path.join(tmpdir(), "lathe-bench-ui-project-"));
  const home = mkdtempSync(path.join(tmpdir(), "lathe-bench-ui-home-"));
  for (const [file, contents] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), contents);
  }
  writeFileSync(
    path.join(home, "settings.json"),
    JSON.stringify({
      model: "openai:gpt-4.1",
      baseUrls: { openai: `${llm.url}/v1` },
      approvalMode,
      sandbox: { mode: "off" },
    }),
  );
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/_API_KEY$/.test(key) && key !== "LATHE_MODEL"),
  );
  const child = spawn(process.execPath, [lathe, "serve"], {
    cwd: root,
    env: { ...env, LATHE_HOME: home, OPENAI_API_KEY: fakeKeys.openaiBench },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk) => {
    stderr += chunk;
  });
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    }
    await llm.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  };
  try {
    const line = await new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`lathe serve printed no URL within 15 s:\n${stderr}`)),
        15_000,
      );
      createInterface({ input: child.stdout }).once("line", (first) => {
        clearTimeout(timer);
        resolve(first);
      });
      child.once("exit", (code) => reject(new Error(`lathe serve exited (${code}):\n${stderr}`)));
    });
    const url = new URL(line.replace(/^Lathe is serving at /, ""));
    return { url: url.href, origin: url.origin, token: url.searchParams.get("token"), root, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** A fresh context (no cookie, no cache) on the served UI, loaded from the token URL. */
async function openPage(browser, served, initScript, hash = "") {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  if (initScript) await context.addInitScript(initScript);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const address = new URLSearchParams({ project: served.root });
  await page.goto(`${served.url}#${address}${hash ? `&${hash}` : ""}`);
  await page.getByTestId("app").waitFor();
  return { page, close: () => context.close() };
}

async function newSession(page) {
  await page.getByTestId("new-session").click();
  await page.locator('[data-testid="chat"][data-session]').waitFor();
  await page.locator('[data-testid="connection"]', { hasText: "live" }).waitFor();
}

function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function round(value, digits = 1) {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
