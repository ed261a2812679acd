import { z } from "zod";

/** `browser` in settings.json; every field falls back to a default. */
export const browserSettingsSchema = z.object({
  /** Chromium or Chrome to drive; searched for in the usual places when absent. */
  executablePath: z.string().optional(),
  /** Lets the browser reach loopback (a dev server on localhost); private networks stay refused. */
  allowLocalhost: z.boolean().optional(),
  /** Longest wait of one page action (navigation, click, typing, reading text). */
  actionTimeoutMs: z.number().int().positive().optional(),
  /** Longest wait for the browser to start. */
  launchTimeoutMs: z.number().int().positive().optional(),
  /** Characters of page text `get_text` returns at most. */
  maxTextChars: z.number().int().positive().optional(),
  /** Screenshots up to this size also travel inline (base64) so vision models can see them. */
  inlineScreenshotMaxBytes: z.number().int().positive().optional(),
  viewport: z.object({ width: z.number().int().positive(), height: z.number().int().positive() }).optional(),
});

export type BrowserSettings = z.infer<typeof browserSettingsSchema>;

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
