import { errorInfo } from "@lathe/protocol";
import type { Page, Response } from "playwright-core";
import { checkUrl } from "../../../policy/networkGuard/index.js";
import type { ToolResult } from "../../tool.js";
import type { ActionOf } from "./actionSchema.js";
import { refusalHeader } from "./guardProxy.js";
import { allowancesOf } from "./launchBrowser.js";
import { type ActionEnv, describePage, describeRefusals, sessionNotes, settle } from "./pageReport.js";

/** Longest wait for Chromium's error page after a failed navigation. */
const errorPageWaitMs = 2000;

/**
 * Opens a URL in the session's page. The guard judges the URL before any browser starts, so a
 * refused address costs no request at all; the proxy then judges every request the page makes,
 * redirects included.
 */
export async function navigate(args: ActionOf<"navigate">, env: ActionEnv): Promise<ToolResult> {
  const check = await checkUrl(args.url, allowancesOf(env.settings));
  if (!check.ok) return { ok: false, error: check.error };
  const { session, notice } = await env.sessions.open(env.ctx.sessionId, env.settings);
  const { page } = session;
  // What the previous page was refused (its favicon, its late requests) says nothing about this one.
  session.proxy.takeRefusals();
  let response: Response | null;
  try {
    response = await goto(page, check.url.href, env.settings.actionTimeoutMs);
  } catch (error) {
    // A refused HTTPS or WebSocket target fails its tunnel; the proxy recorded why.
    const refusals = session.proxy.takeRefusals();
    if (refusals.length > 0 && String(error).includes("ERR_TUNNEL_CONNECTION_FAILED")) {
      return { ok: false, error: errorInfo("E_NETWORK_BLOCKED", describeRefusals(refusals)) };
    }
    throw error;
  }
  if (response?.headers()[refusalHeader] !== undefined) {
    const refusals = session.proxy.takeRefusals();
    const message = refusals.length > 0 ? describeRefusals(refusals) : `${response.url()} was refused.`;
    return { ok: false, error: errorInfo("E_NETWORK_BLOCKED", message) };
  }
  await settle(page, env.settings);
  const status = response === null ? "" : ` (HTTP ${response.status()})`;
  const lines = [`Opened ${await describePage(page)}${status}.`, ...sessionNotes(session, notice)];
  return {
    ok: true,
    output: lines.join("\n"),
    metadata: { url: page.url(), status: response?.status() ?? null },
  };
}

async function goto(page: Page, url: string, timeout: number): Promise<Response | null> {
  try {
    // The DOM is enough to work with; `settle` then gives the rest of the load a bounded wait.
    return await page.goto(url, { timeout, waitUntil: "domcontentloaded" });
  } catch (error) {
    // A network failure's error page commits a moment after `goto` gave up; left pending, it would
    // cut the next navigation short.
    if (String(error).includes("net::ERR_")) {
      await page
        .waitForURL(/^chrome-error:/, { waitUntil: "commit", timeout: errorPageWaitMs })
        .catch(() => {});
    }
    throw error;
  }
}
