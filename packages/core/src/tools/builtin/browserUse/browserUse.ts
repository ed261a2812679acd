import { stripVTControlCharacters } from "node:util";
import { errorInfo, LatheError, type LatheErrorInfo } from "@lathe/protocol";
import { assetUrl } from "../../../assetPath.js";
import { urlBlock } from "../../../policy/urlPrecheck.js";
import { defineTool, type ToolResult } from "../../tool.js";
import { toolPrompt } from "../../toolPrompt.js";
import { type BrowserSettings, withBrowserDefaults } from "../../web/browserSettings.js";
import { actionRisk } from "./actionRisk.js";
import { type BrowserAction, browserUseSchema } from "./actionSchema.js";
import { browserMayLaunch } from "./browserExecutable.js";
import type { BrowserSessions } from "./browserSessions.js";
import { click, type } from "./interactions.js";
import { allowancesOf } from "./launchBrowser.js";
import { navigate } from "./navigate.js";
import { getText, readConsole, wait } from "./pageReading.js";
import type { ActionEnv } from "./pageReport.js";
import { screenshot } from "./screenshot.js";

// This file is the folder's entry: the engine holds the browsers, so it reaches them through here.
export { BrowserSessions } from "./browserSessions.js";

/** Playwright appends a call log to its errors; its first lines say what was being waited for. */
const errorLinesKept = 8;
/** Room above the actions' own timeouts, so they report first and the scheduler's timeout is a safety net. */
const schedulerMarginMs = 10_000;

/**
 * `browser_use`: drives the session's headless Chromium (SPEC §4). `settings` is read on every call,
 * so a changed setting applies to the next action; `sessions` holds the browsers, which the engine
 * closes when a session ends.
 */
export function createBrowserUseTool(settings: () => BrowserSettings, sessions: BrowserSessions) {
  const initial = withBrowserDefaults(settings());
  return defineTool({
    name: "browser_use",
    description: toolPrompt(assetUrl("tools/builtin/browserUse/browserUse.md")),
    schema: browserUseSchema,
    kind: "fetch",
    risk: actionRisk,
    // A navigation's URL passes the network guard before the browser starts, as `navigate` does.
    assess: async (args) => {
      const risk = actionRisk(args);
      const reason = `browser_use ${args.action} is ${risk} risk`;
      if (args.action !== "navigate") return { risk, reason };
      const block = await urlBlock(args.url, allowancesOf(withBrowserDefaults(settings())));
      return block ? { risk: "critical", reason: block.reason, block } : { risk, reason };
    },
    // A navigation may start the browser first; an action may also wait for the one queued before it.
    timeoutMs: initial.launchTimeoutMs + 2 * initial.actionTimeoutMs + schedulerMarginMs,
    truncation: "head",
    available: () => browserMayLaunch(settings().executablePath),
    execute: async (args, ctx) => {
      const env: ActionEnv = { sessions, settings: withBrowserDefaults(settings()), ctx };
      try {
        return await sessions.run(ctx.sessionId, ctx.signal, () => perform(args, env));
      } catch (error) {
        return { ok: false, error: errorInfoOf(error) };
      }
    },
  });
}

async function perform(args: BrowserAction, env: ActionEnv): Promise<ToolResult> {
  switch (args.action) {
    case "navigate":
      return navigate(args, env);
    case "click":
      return click(args, env);
    case "type":
      return type(args, env);
    case "screenshot":
      return screenshot(args, env);
    case "get_text":
      return getText(args, env);
    case "wait":
      return wait(args, env);
    case "console":
      return readConsole(env);
    case "close": {
      const closed = await env.sessions.close(env.ctx.sessionId);
      return { ok: true, output: closed ? "Closed the browser." : "No browser was open." };
    }
  }
}

function errorInfoOf(error: unknown): LatheErrorInfo {
  if (error instanceof LatheError) return error.toInfo();
  // Playwright colours its call log for terminals; the model gets plain text.
  const message = stripVTControlCharacters(error instanceof Error ? error.message : String(error))
    .split("\n")
    .slice(0, errorLinesKept)
    .join("\n");
  // By name: Playwright is loaded lazily, so its error classes are not at hand here.
  if (error instanceof Error && error.name === "TimeoutError") return errorInfo("E_TOOL_TIMEOUT", message);
  return errorInfo("E_TOOL_EXECUTION", message);
}
