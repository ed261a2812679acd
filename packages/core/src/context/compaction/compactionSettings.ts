/** SPEC §6. Every number is a default; `window` is the model's context window from the catalog. */
export interface CompactionSettings {
  /** Context window of the model the requests go to, in tokens. */
  window: number;
  /** Compact when the next request would pass this share of the window (default 0.8). */
  threshold?: number;
  /** Tokens of the newest tool outputs that stay intact when older ones are pruned (default 40,000). */
  keepToolOutputTokens?: number;
  /** Share of the messages' tokens, newest first, kept verbatim when the rest is summarized (default 0.3). */
  tailFraction?: number;
  /**
   * Bound on the summarizer's whole request (default min(window × 0.5, 100,000)). Give the fast
   * model's own window here when it is smaller than the main model's.
   */
  maxSummarizerInputTokens?: number;
  /** Longest summary the summarizer may write (default 4,096). */
  summaryMaxOutputTokens?: number;
}

export type ResolvedCompactionSettings = Required<CompactionSettings>;

export function resolveCompactionSettings(settings: CompactionSettings): ResolvedCompactionSettings {
  return {
    window: settings.window,
    threshold: settings.threshold ?? 0.8,
    keepToolOutputTokens: settings.keepToolOutputTokens ?? 40_000,
    tailFraction: settings.tailFraction ?? 0.3,
    maxSummarizerInputTokens:
      settings.maxSummarizerInputTokens ?? Math.min(Math.floor(settings.window * 0.5), 100_000),
    summaryMaxOutputTokens: settings.summaryMaxOutputTokens ?? 4096,
  };
}

/** Whether a request of this many (calibrated) tokens would pass the compaction threshold. */
export function needsCompaction(estimatedRequestTokens: number, settings: CompactionSettings): boolean {
  return estimatedRequestTokens > (settings.threshold ?? 0.8) * settings.window;
}
