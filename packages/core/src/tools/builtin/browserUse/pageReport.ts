import type { Page } from "playwright-core";
import type { ToolContext } from "../../tool.js";
import type { ResolvedBrowserSettings } from "../../web/browserSettings.js";
import type { BrowserSessions } from "./browserSessions.js";
import type { Refusal } from "./guardProxy.js";
import type { SessionBrowser } from "./launchBrowser.js";

/** What every action gets: the browsers, the settings of this call and the tool context. */
export interface ActionEnv {
  sessions: BrowserSessions;
  settings: ResolvedBrowserSettings;
  ctx: ToolContext;
}

/** Refused requests listed by URL; the rest are counted. */
const refusalsListed = 5;
/** `page.title()` waits for a navigation in flight; a summary must not wait long for it. */
const titleWaitMs = 1000;

/** `http://host/path ("Title")`, for saying where the page is after an action. */
export async function describePage(page: Page): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(""), titleWaitMs);
  });
  const title = await Promise.race([page.title().catch(() => ""), late]).finally(() => clearTimeout(timer));
  return title === "" ? page.url() : `${page.url()} ("${title}")`;
}

/**
 * Lines that follow any action's own output: a notice that earlier state was lost, requests the
 * network guard refused since the last action, and console messages waiting to be read.
 */
export function sessionNotes(session: SessionBrowser, notice?: string): string[] {
  const notes: string[] = [];
  if (notice !== undefined) notes.push(`Note: ${notice}`);
  const refusals = session.proxy.takeRefusals();
  if (refusals.length > 0) notes.push(describeRefusals(refusals));
  const pending = session.console.pending;
  if (pending > 0) {
    notes.push(
      `${pending} console message${pending === 1 ? "" : "s"} waiting; read them with the console action.`,
    );
  }
  return notes;
}

export function describeRefusals(refusals: readonly Refusal[]): string {
  const listed = refusals.slice(0, refusalsListed).map((refusal) => `  - ${refusal.reason}`);
  const more = refusals.length - listed.length;
  if (more > 0) listed.push(`  - and ${more} more`);
  return [`The network guard refused ${refusals.length} request(s) of the page:`, ...listed].join("\n");
}

/** How long to let a page finish loading after an action; its content is usually usable well before. */
const settleMaxMs = 5000;

/**
 * Waits for the load a navigation, click or submit may have started. A page whose images or
 * trackers never finish is left as it is: what has loaded can already be read and clicked.
 */
export async function settle(page: Page, settings: ResolvedBrowserSettings): Promise<void> {
  const timeout = Math.min(settings.actionTimeoutMs, settleMaxMs);
  await page.waitForLoadState("load", { timeout }).catch(() => {});
}
