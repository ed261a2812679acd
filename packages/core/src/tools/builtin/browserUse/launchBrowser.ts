import { LatheError } from "@lathe/protocol";
import type { Browser, BrowserContext, LaunchOptions, Page } from "playwright-core";
import type { AddressAllowances } from "../../../policy/networkGuard/index.js";
import type { ResolvedBrowserSettings } from "../../web/browserSettings.js";
import { findBrowserExecutable } from "./browserExecutable.js";
import { ConsoleLog } from "./consoleLog.js";
import { GuardProxy } from "./guardProxy.js";

/** Starts a browser; Playwright's `chromium.launch` outside tests. */
export type BrowserLauncher = (options: LaunchOptions) => Promise<Browser>;

/** One session's browser with its single page and what the page has logged. */
export interface SessionBrowser {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Set when the page crashed or closed itself (`window.close()`); the browser may still run. */
  pageLost: boolean;
  console: ConsoleLog;
  proxy: GuardProxy;
}

/** Lines of a launch failure worth showing; Playwright appends the browser's whole log. */
const launchErrorLines = 12;

export function allowancesOf(settings: ResolvedBrowserSettings): AddressAllowances {
  return { allowLoopback: settings.allowLocalhost };
}

/** Launches headless Chromium whose every request goes through a guard proxy, with one blank page. */
export async function launchSessionBrowser(
  launcher: BrowserLauncher,
  settings: ResolvedBrowserSettings,
): Promise<SessionBrowser> {
  const executablePath = await findBrowserExecutable(settings.executablePath);
  const proxy = await GuardProxy.start(allowancesOf(settings));
  let browser: Browser;
  try {
    browser = await launcher({
      executablePath,
      headless: true,
      timeout: settings.launchTimeoutMs,
      proxy: { server: proxy.url },
      args: [
        // Chromium sends loopback around a proxy by default; the guard must see it too.
        "--proxy-bypass-list=<-loopback>",
        // WebRTC's UDP would leave through no proxy at all, local network included.
        "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
      ],
    });
  } catch (error) {
    await proxy.close();
    throw new LatheError(
      "E_TOOL_EXECUTION",
      `Could not start the browser ${executablePath}: ${firstLines(error)}`,
    );
  }
  // A crashed browser's proxy would otherwise listen until the session ends.
  browser.on("disconnected", () => void proxy.close());
  try {
    const context = await browser.newContext({
      viewport: settings.viewport,
      proxy: { server: proxy.url },
      // Pages must not drop files anywhere; the model saves what it needs itself.
      acceptDownloads: false,
    });
    const session: SessionBrowser = {
      browser,
      context,
      page: await context.newPage(),
      pageLost: false,
      console: new ConsoleLog(),
      proxy,
    };
    watchPage(session);
    return session;
  } catch (error) {
    await browser.close().catch(() => {});
    throw new LatheError(
      "E_TOOL_EXECUTION",
      `The browser started but could not open a page: ${firstLines(error)}`,
    );
  }
}

/** Replaces a page that crashed or closed with a fresh blank one in the same browser. */
export async function replacePage(session: SessionBrowser): Promise<void> {
  session.page = await session.context.newPage();
  session.pageLost = false;
  watchPage(session);
}

function watchPage(session: SessionBrowser): void {
  const { page } = session;
  session.console.attach(page);
  const lost = () => {
    if (session.page === page) session.pageLost = true;
  };
  page.on("crash", lost);
  page.on("close", lost);
}

function firstLines(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n").slice(0, launchErrorLines).join("\n");
}
