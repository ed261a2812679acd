/** The `browser` settings as the user writes them; every field falls back to a default. */
export interface BrowserSettings {
  /** Chromium or Chrome to drive; searched for in the usual places when absent. */
  executablePath?: string;
  /** Lets the browser reach loopback (a dev server on localhost); private networks stay refused. */
  allowLocalhost?: boolean;
  /** Longest wait of one page action (navigation, click, typing, reading text). */
  actionTimeoutMs?: number;
  /** Longest wait for the browser to start. */
  launchTimeoutMs?: number;
  /** Characters of page text `get_text` returns at most. */
  maxTextChars?: number;
  /** Screenshots up to this size also travel inline (base64) so vision models can see them. */
  inlineScreenshotMaxBytes?: number;
  viewport?: { width: number; height: number };
}

export type ResolvedBrowserSettings = Required<Omit<BrowserSettings, "executablePath">> &
  Pick<BrowserSettings, "executablePath">;

export const browserDefaults: ResolvedBrowserSettings = {
  allowLocalhost: false,
  actionTimeoutMs: 15_000,
  launchTimeoutMs: 30_000,
  maxTextChars: 30_000,
  // Under the 5 MB per-image limit of the providers once base64 has grown it by a third.
  inlineScreenshotMaxBytes: 3.5 * 1024 * 1024,
  viewport: { width: 1280, height: 800 },
};

/** Longest `wait`, whether for a selector or a fixed time. */
export const maxWaitMs = 10_000;

export function withBrowserDefaults(settings: BrowserSettings): ResolvedBrowserSettings {
  const d = browserDefaults;
  return {
    executablePath: settings.executablePath,
    allowLocalhost: settings.allowLocalhost ?? d.allowLocalhost,
    actionTimeoutMs: settings.actionTimeoutMs ?? d.actionTimeoutMs,
    launchTimeoutMs: settings.launchTimeoutMs ?? d.launchTimeoutMs,
    maxTextChars: settings.maxTextChars ?? d.maxTextChars,
    inlineScreenshotMaxBytes: settings.inlineScreenshotMaxBytes ?? d.inlineScreenshotMaxBytes,
    viewport: settings.viewport ?? d.viewport,
  };
}
