import path from "node:path";
import type { DatabaseSync } from "node:sqlite";
import { isWithin } from "../policy/pathGuard.js";
import { ProjectIgnore } from "../tools/projectIgnore/projectIgnore.js";
import type { CodeSearchHit, CodeSearchIndex } from "../tools/toolServices.js";
import { embedMissingChunks } from "./embedding/embedChunks.js";
import type { Embedder, EmbedFunction } from "./embedding/embedder.js";
import { IndexStore } from "./indexing/indexStore.js";
import { type RefreshCounts, refreshAll, refreshSome } from "./indexing/refreshIndex.js";
import { renderRepoMap } from "./repoMap/repoMap.js";
import { searchChunks } from "./search/searchChunks.js";

export interface CodeIndexOptions {
  /** The session database (migration 2 applied); several projects share it, keyed by root. */
  db: DatabaseSync;
  projectRoot: string;
  /** Embeds texts; when given, chunks get vectors and search blends their similarity with BM25. */
  embed?: EmbedFunction;
  /** Names the embedding model, so that a change of model recomputes the vectors (default "default"). */
  embeddingModel?: string;
}

export interface RefreshResult extends RefreshCounts {
  ms: number;
  /** Why chunks were left without vectors this time (they are embedded on a later refresh). */
  embeddingError?: string;
}

/**
 * The project's code index (SPEC §6): symbol-bounded chunks searched with BM25 (and embeddings
 * when configured), and the repo map. Everything lives in the session database, so a restart
 * only re-reads the files that changed. Refreshes run one at a time.
 */
export class CodeIndex implements CodeSearchIndex {
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly store: IndexStore,
    private readonly projectRoot: string,
    private readonly embedder: Embedder | undefined,
  ) {}

  static open(options: CodeIndexOptions): CodeIndex {
    const embedder =
      options.embed === undefined
        ? undefined
        : { embed: options.embed, model: options.embeddingModel ?? "default" };
    return new CodeIndex(new IndexStore(options.db, options.projectRoot), options.projectRoot, embedder);
  }

  /** Brings the index up to date: changed files re-chunked, deleted ones dropped, unchanged ones skipped. */
  refresh(signal?: AbortSignal): Promise<RefreshResult> {
    return this.serialized(async () => {
      const started = performance.now();
      const counts = await refreshAll(this.store, this.projectRoot, signal);
      const embeddingError = await this.embedMissing(signal);
      const result: RefreshResult = { ...counts, ms: Math.round(performance.now() - started) };
      if (embeddingError !== undefined) result.embeddingError = embeddingError;
      return result;
    });
  }

  /**
   * Re-indexes just these paths (relative to the project root or absolute), after an edit. Paths
   * outside the project are ignored; an embedding failure is left for the next `refresh` to report.
   */
  refreshPaths(paths: readonly string[]): Promise<void> {
    return this.serialized(async () => {
      const relative = paths.flatMap((given) => this.relativePath(given) ?? []);
      await refreshSome(this.store, this.projectRoot, relative, new ProjectIgnore(this.projectRoot));
      await this.embedMissing();
    });
  }

  async search(
    query: string,
    options: { limit: number; paths?: readonly string[] },
    signal: AbortSignal,
  ): Promise<CodeSearchHit[]> {
    const request = { query, limit: options.limit };
    if (options.paths === undefined) return searchChunks(this.store, request, this.embedder, signal);
    // A scope wholly outside the project holds no files, so it finds nothing.
    const scope = options.paths.flatMap((given) => this.relativePath(given) ?? []);
    const fileIds = this.store.fileIdsUnder(scope);
    return searchChunks(this.store, { ...request, fileIds }, this.embedder, signal);
  }

  /**
   * The repo map: the most referenced symbols (ties in path order), grouped by file, within
   * `maxTokens` estimated as characters / 4.
   */
  repoMap(options: { maxTokens: number; focusPaths?: readonly string[] }): string {
    const focusPaths = options.focusPaths?.flatMap((given) => this.relativePath(given) ?? []);
    return renderRepoMap({
      symbols: this.store.symbols(),
      references: this.store.references(),
      maxTokens: options.maxTokens,
      focusPaths,
    });
  }

  private async embedMissing(signal?: AbortSignal): Promise<string | undefined> {
    if (this.embedder === undefined) return undefined;
    try {
      await embedMissingChunks(this.store, this.embedder, signal);
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  /** Relative with forward slashes ("." for the root); undefined when outside the project. */
  private relativePath(given: string): string | undefined {
    const absolute = path.resolve(this.projectRoot, given);
    if (!isWithin(this.projectRoot, absolute)) return undefined;
    return path.relative(this.projectRoot, absolute).split(path.sep).join("/") || ".";
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
