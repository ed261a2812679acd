import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { BrowserSessions, createBrowserUseTool } from "../../src/tools/builtin/browserUse/browserUse.js";
import type { ToolResult } from "../../src/tools/tool.js";
import type { BrowserSettings } from "../../src/tools/web/browserSettings.js";
import { startTestSite, type TestSite } from "./browserTestPage.js";
import { createToolTestBed, errorOf, outputOf, type ToolTestBed } from "./toolTestContext.js";

const systemChromium = "/usr/bin/chromium";
const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Short, so the "element never appears" cases fail fast. */
const testActionTimeoutMs = 1500;

let site: TestSite;
let bed: ToolTestBed;
let sessions: BrowserSessions;
/** Every browser the sessions launched, to count launches and to crash one on purpose. */
const launched: Browser[] = [];
let settings: BrowserSettings;
let tool: ReturnType<typeof createBrowserUseTool>;

beforeAll(async () => {
  // These tests drive the real browser; without it they must fail, not pass by skipping.
  if (!existsSync(systemChromium)) {
    throw new Error(
      `browser_use tests need Chromium at ${systemChromium}: install it (apt-get install chromium).`,
    );
  }
  site = await startTestSite();
  bed = createToolTestBed();
  sessions = new BrowserSessions(async (options) => {
    const browser = await chromium.launch(options);
    launched.push(browser);
    return browser;
  });
  resetSettings();
  tool = createBrowserUseTool(() => settings, sessions);
});

afterAll(async () => {
  await sessions?.closeAll();
  await site?.close();
  bed?.cleanup();
});

function resetSettings(overrides: BrowserSettings = {}): void {
  settings = { allowLocalhost: true, actionTimeoutMs: testActionTimeoutMs, ...overrides };
}

/** Validates like the registry does, then runs the tool in the given session. */
function call(
  args: Record<string, unknown>,
  options: { sessionId?: string; signal?: AbortSignal } = {},
): Promise<ToolResult> {
  const ctx = { ...bed.context(options.signal ? { signal: options.signal } : {}) };
  if (options.sessionId !== undefined) ctx.sessionId = options.sessionId;
  return tool.execute(tool.schema.parse(args), ctx);
}

async function pageText(selector: string, sessionId?: string): Promise<string> {
  return outputOf(await call({ action: "get_text", selector }, { sessionId }));
}

describe("browser_use against a local page", () => {
  it("navigates, clicks by selector and reads the changed text", async () => {
    resetSettings();
    const opened = outputOf(await call({ action: "navigate", url: `${site.origin}/` }));
    expect(opened).toContain(`Opened ${site.origin}/ ("Test page") (HTTP 200).`);
    expect(await pageText("#out")).toContain("before");

    const clicked = outputOf(await call({ action: "click", selector: "#go" }));
    expect(clicked).toContain("Clicked the element matching #go");
    expect(clicked).toContain("2 console messages waiting");
    expect(await pageText("#out")).toContain("after");
  });

  it("returns console messages with their level, once", async () => {
    const logged = outputOf(await call({ action: "console" }));
    expect(logged).toMatch(/^\[log\] clicked! \(http:\/\/127\.0\.0\.1:\d+\/:\d+\)$/m);
    expect(logged).toMatch(/^\[warning\] careful/m);
    expect(outputOf(await call({ action: "console" }))).toBe("No console messages since the last check.");
  });

  it("clicks by visible text", async () => {
    outputOf(await call({ action: "navigate", url: `${site.origin}/` }));
    expect(await pageText("#out")).toContain("before");
    outputOf(await call({ action: "click", text: "Change text" }));
    expect(await pageText("#out")).toContain("after");
  });

  it("types into a field and submits the form", async () => {
    outputOf(await call({ action: "navigate", url: `${site.origin}/` }));
    const typed = `it's "quoted" <b>&amp;</b> '); alert(1); ('`;
    const submitted = outputOf(await call({ action: "type", selector: "#q", text: typed, submit: true }));
    expect(submitted).toContain(`Typed into and submitted #q. The page is ${site.origin}/echo ("Echo").`);
    expect(await pageText("#echo")).toContain(`Text of #echo:\n${typed}\n`);
  });

  it("treats selectors and text as data, never as script", async () => {
    outputOf(await call({ action: "navigate", url: `${site.origin}/` }));
    await call({ action: "console" });
    const injections = [
      { action: "click", selector: `#go'); document.getElementById('out').textContent = 'pwned'; ('` },
      { action: "click", selector: `#go"), document.title = "pwned", ("` },
      { action: "click", text: `'); document.getElementById('out').textContent = 'pwned'; ('` },
      { action: "type", selector: `#q'); document.title = 'pwned'; ('`, text: "x" },
      { action: "get_text", selector: "#out`); document.title = `pwned`; (`" },
    ];
    for (const args of injections) {
      const error = errorOf(await call(args));
      // Either the selector does not parse or it matches nothing: both are plain failures.
      expect(["E_TOOL_EXECUTION", "E_TOOL_TIMEOUT"]).toContain(error.code);
    }
    const page = outputOf(await call({ action: "get_text" }));
    expect(page).toContain('("Test page")');
    expect(page).toContain("before");
    expect(page).not.toContain("pwned");
    expect(outputOf(await call({ action: "console" }))).toBe("No console messages since the last check.");
  });

  it("runs one session's actions in the order they arrived", async () => {
    // A batch of read-only calls runs concurrently; the click must still wait for the navigation.
    const [opened, clicked, read] = await Promise.all([
      call({ action: "navigate", url: `${site.origin}/` }),
      call({ action: "click", selector: "#go" }),
      call({ action: "get_text", selector: "#out" }),
    ]);
    outputOf(opened);
    outputOf(clicked);
    expect(outputOf(read)).toContain("after");
    await call({ action: "console" });
  });
});

describe("browser_use screenshots", () => {
  it("saves a PNG in the tool output and passes it inline", async () => {
    resetSettings();
    outputOf(await call({ action: "navigate", url: `${site.origin}/` }));
    const result = await call({ action: "screenshot" });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const metadata = z
      .object({
        screenshotPath: z.string(),
        mediaType: z.literal("image/png"),
        base64: z.string(),
        width: z.number(),
        height: z.number(),
      })
      .parse(result.metadata);
    expect(path.dirname(metadata.screenshotPath)).toBe(path.join(bed.latheHome, "tool-output"));
    const png = readFileSync(metadata.screenshotPath);
    expect(png.subarray(0, 8).equals(pngSignature)).toBe(true);
    expect(Buffer.from(metadata.base64, "base64").equals(png)).toBe(true);
    expect([metadata.width, metadata.height]).toEqual([1280, 800]);
    expect(result.output).toContain(`Saved a 1280×800 screenshot of ${site.origin}/ ("Test page")`);
  });

  it("saves into the project through the path guard, never over a file", async () => {
    outputOf(await call({ action: "navigate", url: `${site.origin}/tall` }));
    const saved = await call({ action: "screenshot", path: "shots/tall.png", full_page: true });
    expect(outputOf(saved)).toContain("to shots/tall.png");
    const png = readFileSync(path.join(bed.projectRoot, "shots/tall.png"));
    expect(png.subarray(0, 8).equals(pngSignature)).toBe(true);
    expect(png.readUInt32BE(20)).toBe(3000);

    expect(errorOf(await call({ action: "screenshot", path: "shots/tall.png" })).code).toBe("E_INVALID_ARGS");
    expect(errorOf(await call({ action: "screenshot", path: "../outside/x.png" })).code).toBe(
      "E_PATH_TRAVERSAL",
    );
    expect(errorOf(await call({ action: "screenshot", path: "shots/picture.jpg" })).code).toBe(
      "E_INVALID_ARGS",
    );
  });
});

describe("browser_use network guard", () => {
  it("refuses a blocked address before starting a browser or sending anything", async () => {
    resetSettings();
    const launches = launched.length;
    const error = errorOf(
      await call(
        { action: "navigate", url: "http://169.254.169.254/latest/meta-data/" },
        { sessionId: "fresh" },
      ),
    );
    expect(error.code).toBe("E_NETWORK_BLOCKED");
    expect(launched.length).toBe(launches);
  });

  it("refuses localhost unless the user allows it", async () => {
    resetSettings({ allowLocalhost: false });
    const requests = site.requests.length;
    const error = errorOf(await call({ action: "navigate", url: `${site.origin}/` }));
    expect(error.code).toBe("E_NETWORK_BLOCKED");
    expect(error.message).toContain("loopback");
    expect(site.requests.length).toBe(requests);
  });

  it("checks redirects and HTTPS tunnels the page is sent to", async () => {
    resetSettings();
    const toMetadata = errorOf(
      await call({ action: "navigate", url: `${site.origin}/redirect-to-metadata` }),
    );
    expect(toMetadata.code).toBe("E_NETWORK_BLOCKED");
    expect(toMetadata.message).toContain("169.254.169.254");

    const toPrivate = errorOf(
      await call({ action: "navigate", url: `${site.origin}/redirect-to-private-https` }),
    );
    expect(toPrivate.code).toBe("E_NETWORK_BLOCKED");
    expect(toPrivate.message).toContain("10.0.0.1");
  });

  it("refuses the page's own requests to private addresses and says so", async () => {
    const opened = outputOf(await call({ action: "navigate", url: `${site.origin}/private-image` }));
    expect(opened).toContain("The network guard refused 1 request(s) of the page:");
    expect(opened).toContain("http://10.1.2.3/pixel.png");
  });
});

describe("browser_use lifecycle", () => {
  it("starts a new browser after the old one crashed", async () => {
    resetSettings();
    const sessionId = "crash";
    outputOf(await call({ action: "navigate", url: `${site.origin}/` }, { sessionId }));
    const browser = launched.at(-1);
    if (browser === undefined) throw new Error("no browser was launched");
    const cdp = await browser.newBrowserCDPSession();
    const { processInfo } = await cdp.send("SystemInfo.getProcessInfo");
    const pid = processInfo.find((info) => info.type === "browser")?.id;
    if (pid === undefined) throw new Error("the browser did not report its process id");
    const gone = new Promise((resolve) => browser.once("disconnected", resolve));
    process.kill(pid, "SIGKILL");
    await gone;

    const lost = errorOf(await call({ action: "get_text", selector: "#out" }, { sessionId }));
    expect(lost.message).toContain("The browser stopped");
    const reopened = outputOf(await call({ action: "navigate", url: `${site.origin}/` }, { sessionId }));
    expect(reopened).toContain("a new one was started");
    expect(await pageText("#out", sessionId)).toContain("before");
    await sessions.close(sessionId);
  });

  it("closes on request and says when nothing is open", async () => {
    const sessionId = "closing";
    outputOf(await call({ action: "navigate", url: `${site.origin}/` }, { sessionId }));
    expect(outputOf(await call({ action: "close" }, { sessionId }))).toBe("Closed the browser.");
    expect(errorOf(await call({ action: "get_text" }, { sessionId })).message).toContain("navigate");
    expect(outputOf(await call({ action: "close" }, { sessionId }))).toBe("No browser was open.");
  });

  it("names the fix when no browser can be found", async () => {
    resetSettings({ executablePath: path.join(bed.outside, "no-such-chromium") });
    const error = errorOf(
      await call({ action: "navigate", url: `${site.origin}/` }, { sessionId: "nobrowser" }),
    );
    expect(error.code).toBe("E_TOOL_EXECUTION");
    expect(error.message).toContain("no browser found");
    expect(error.message).toContain("apt-get install chromium");
  });
});

describe("browser_use wait", () => {
  it("waits for an element, up to a bounded time", async () => {
    resetSettings();
    outputOf(await call({ action: "navigate", url: `${site.origin}/` }));
    expect(outputOf(await call({ action: "wait", selector: "#late" }))).toContain("#late is visible.");
    const started = Date.now();
    expect(errorOf(await call({ action: "wait", selector: "#never", ms: 300 })).code).toBe("E_TOOL_TIMEOUT");
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("refuses waits over 10 seconds", () => {
    expect(tool.schema.safeParse({ action: "wait", ms: 10_001 }).success).toBe(false);
    expect(tool.schema.safeParse({ action: "wait", ms: 10_000 }).success).toBe(true);
    expect(tool.schema.safeParse({ action: "wait" }).success).toBe(false);
  });

  it("stops waiting when cancelled", async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 100);
    const error = errorOf(await call({ action: "wait", ms: 10_000 }, { signal: controller.signal }));
    expect(error.code).toBe("E_CANCELLED");
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe("browser_use schema and risk", () => {
  it("offers providers a plain object schema and checks each action's fields", () => {
    const wire = z.toJSONSchema(tool.schema, { io: "input" });
    expect(wire.type).toBe("object");
    expect(tool.schema.safeParse({ action: "navigate" }).success).toBe(false);
    expect(tool.schema.safeParse({ action: "click", selector: "#a", text: "A" }).success).toBe(false);
    expect(tool.schema.safeParse({ action: "click" }).success).toBe(false);
    expect(tool.schema.safeParse({ action: "type", selector: "#q" }).success).toBe(false);
  });

  it("rates sites medium, the user's own app low, and reading safe", () => {
    const risk = (args: Record<string, unknown>) => tool.risk(tool.schema.parse(args), bed);
    expect(risk({ action: "navigate", url: "https://example.com/" })).toBe("medium");
    expect(risk({ action: "navigate", url: "http://localhost:3000/" })).toBe("low");
    expect(risk({ action: "navigate", url: "http://127.0.0.1:5173/" })).toBe("low");
    expect(risk({ action: "navigate", url: "http://[::1]:8080/" })).toBe("low");
    expect(risk({ action: "click", text: "Buy now" })).toBe("medium");
    expect(risk({ action: "type", selector: "#q", text: "x" })).toBe("medium");
    expect(risk({ action: "screenshot" })).toBe("safe");
    expect(risk({ action: "screenshot", path: "shot.png" })).toBe("low");
    expect(risk({ action: "get_text" })).toBe("safe");
    expect(risk({ action: "console" })).toBe("safe");
    expect(tool.kind).toBe("fetch");
  });
});
