import { LatheError } from "@lathe/protocol";
import type { ResolvedBrowserSettings } from "../../web/browserSettings.js";
import { cancelledError, untilCancelled } from "./abortable.js";
import {
  allowancesOf,
  type BrowserLauncher,
  launchSessionBrowser,
  replacePage,
  type SessionBrowser,
} from "./launchBrowser.js";

/** The page an action works on; `notice` tells the model when earlier page state was lost. */
export interface OpenedPage {
  session: SessionBrowser;
  notice?: string;
}

/**
 * One headless browser per agent session, started on the first navigation and kept for the next
 * actions, so the model can click through a page it loaded earlier. The engine closes a session's
 * browser when the session is disposed (`close`) and all of them on shutdown (`closeAll`).
 */
export class BrowserSessions {
  private readonly browsers = new Map<string, SessionBrowser>();
  private readonly starting = new Map<string, Promise<SessionBrowser>>();
  private readonly turns = new Map<string, Promise<void>>();

  // Playwright is loaded with the first browser, not when Lathe starts.
  constructor(
    private readonly launcher: BrowserLauncher = async (options) =>
      (await import("playwright-core")).chromium.launch(options),
  ) {}

  /**
   * Runs `work` once the session's earlier actions have finished. Read-only tool calls of a batch
   * run concurrently, and `click` must not overtake the `navigate` before it, so a session's
   * actions take turns in the order they arrived. Cancelling returns at once; the abandoned work
   * keeps its turn until its own timeout ends it, so the next action cannot interleave with it.
   */
  run<T>(sessionId: string, signal: AbortSignal, work: () => Promise<T>): Promise<T> {
    const previous = this.turns.get(sessionId) ?? Promise.resolve();
    const result = previous.then(() => {
      if (signal.aborted) throw cancelledError();
      return work();
    });
    const done = result.then(
      () => undefined,
      () => undefined,
    );
    this.turns.set(sessionId, done);
    void done.then(() => {
      if (this.turns.get(sessionId) === done) this.turns.delete(sessionId);
    });
    return untilCancelled(result, signal);
  }

  /** The session's page, starting the browser, or a new page, when there is none that works. */
  async open(sessionId: string, settings: ResolvedBrowserSettings): Promise<OpenedPage> {
    const existing = this.browsers.get(sessionId);
    if (existing?.browser.isConnected()) {
      existing.proxy.allowances = allowancesOf(settings);
      if (!existing.pageLost) return { session: existing };
      await replacePage(existing);
      return { session: existing, notice: "The previous page had crashed or closed; this is a new page." };
    }
    if (existing !== undefined) this.browsers.delete(sessionId);
    const session = await this.start(sessionId, settings);
    if (existing === undefined) return { session };
    return {
      session,
      notice:
        "The browser had stopped (it crashed or was closed); a new one was started and the earlier page state is gone.",
    };
  }

  /** The session's working page; an error saying how to get one when there is none. */
  current(sessionId: string, settings: ResolvedBrowserSettings): SessionBrowser {
    const session = this.browsers.get(sessionId);
    if (session === undefined) {
      throw new LatheError(
        "E_TOOL_EXECUTION",
        "No page is open in the browser: use the navigate action first.",
      );
    }
    if (!session.browser.isConnected()) {
      throw new LatheError(
        "E_TOOL_EXECUTION",
        "The browser stopped (it crashed or was closed) and its page is gone: navigate again to start a new one.",
      );
    }
    if (session.pageLost) {
      throw new LatheError(
        "E_TOOL_EXECUTION",
        "The page crashed or was closed: navigate again to open a new one.",
      );
    }
    session.proxy.allowances = allowancesOf(settings);
    return session;
  }

  /** Closes the session's browser; false when none was open. */
  async close(sessionId: string): Promise<boolean> {
    // A browser still starting would otherwise appear after its session was closed.
    await this.starting.get(sessionId)?.catch(() => undefined);
    const session = this.browsers.get(sessionId);
    if (session === undefined) return false;
    this.browsers.delete(sessionId);
    // A crashed browser cannot be closed again, but its proxy still has to go.
    await session.browser.close().catch(() => {});
    await session.proxy.close();
    return true;
  }

  async closeAll(): Promise<void> {
    const sessionIds = new Set([...this.browsers.keys(), ...this.starting.keys()]);
    await Promise.all([...sessionIds].map((sessionId) => this.close(sessionId)));
  }

  private async start(sessionId: string, settings: ResolvedBrowserSettings): Promise<SessionBrowser> {
    const starting = launchSessionBrowser(this.launcher, settings).then((session) => {
      this.browsers.set(sessionId, session);
      return session;
    });
    this.starting.set(sessionId, starting);
    try {
      return await starting;
    } finally {
      this.starting.delete(sessionId);
    }
  }
}
