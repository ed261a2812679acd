import type { CodeSearchHit, CodeSearchIndex } from "../tools/toolServices.js";
import type { CodeIndex, RefreshResult } from "./codeIndex.js";

/**
 * The index as a session uses it: opened and built on first use rather than at start (a cold build
 * of a large project takes seconds the user may never need, and even opening writes to the
 * database), and brought up to date incrementally before a search whenever something may have
 * changed files since the last refresh — an edit or a shell command alike.
 */
export class LiveCodeIndex implements CodeSearchIndex {
  private stale = true;
  private lastRefresh?: RefreshResult;
  private opened?: CodeIndex;

  constructor(private readonly open: () => CodeIndex) {}

  private get index(): CodeIndex {
    this.opened ??= this.open();
    return this.opened;
  }

  /** After any call that may have changed files. */
  markStale(): void {
    this.stale = true;
  }

  /** Files indexed at the last refresh; undefined before the first. */
  get fileCount(): number | undefined {
    return this.lastRefresh?.files;
  }

  async search(
    query: string,
    options: { limit: number; paths?: readonly string[] },
    signal: AbortSignal,
  ): Promise<CodeSearchHit[]> {
    if (this.stale) {
      this.stale = false;
      this.lastRefresh = await this.index.refresh(signal);
    }
    return this.index.search(query, options, signal);
  }

  /** The repo map, once the index has been built; empty before. */
  repoMap(options: { maxTokens: number; focusPaths?: readonly string[] }): string {
    return this.lastRefresh ? this.index.repoMap(options) : "";
  }
}
