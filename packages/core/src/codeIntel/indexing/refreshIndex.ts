import type { ProjectIgnore } from "../../tools/projectIgnore/projectIgnore.js";
import { type FileUpdate, updateFor } from "./indexFile.js";
import type { IndexedFile, IndexStore } from "./indexStore.js";
import { isIndexablePath, listProjectFiles } from "./projectFiles.js";

/** Files re-indexed per transaction: large enough to be fast, small enough to keep the lock short. */
const filesPerWrite = 50;

export interface RefreshCounts {
  /** Files in the index afterwards. */
  files: number;
  /** Files (re-)indexed because their content was new or changed. */
  changed: number;
  /** Files dropped: deleted, ignored now, or no longer text. */
  removed: number;
  /** Chunks in the index afterwards. */
  chunks: number;
}

/**
 * Brings the index in line with the project's files. When `signal` aborts, what was indexed so far
 * stays and nothing is dropped, since the files not yet listed are not known to be gone.
 */
export async function refreshAll(
  store: IndexStore,
  projectRoot: string,
  signal?: AbortSignal,
): Promise<RefreshCounts> {
  const listed = await listProjectFiles(projectRoot, signal);
  const stored = store.files();
  const writer = new BatchWriter(store);
  for (const relative of listed) {
    if (signal?.aborted === true) break;
    writer.apply(relative, await updateFor(projectRoot, relative, stored.get(relative)));
  }
  if (signal?.aborted !== true) {
    const present = new Set(listed);
    for (const relative of stored.keys()) if (!present.has(relative)) writer.drop(relative);
  }
  writer.flush();
  return {
    files: store.fileCount(),
    changed: writer.changed,
    removed: writer.removed,
    chunks: store.chunkStats().count,
  };
}

/** Re-indexes just these files (relative paths), dropping those that are gone or now ignored. */
export async function refreshSome(
  store: IndexStore,
  projectRoot: string,
  relativePaths: readonly string[],
  ignore: ProjectIgnore,
): Promise<void> {
  const writer = new BatchWriter(store);
  for (const relative of new Set(relativePaths)) {
    const update = (await isIndexablePath(ignore, relative))
      ? await updateFor(projectRoot, relative, store.file(relative))
      : ({ action: "drop" } as const);
    writer.apply(relative, update);
  }
  writer.flush();
}

/** Collects changes and writes them in batches, one transaction each, never across an await. */
class BatchWriter {
  private pending: IndexedFile[] = [];
  private dropped: string[] = [];
  changed = 0;
  removed = 0;

  constructor(private readonly store: IndexStore) {}

  apply(relative: string, update: FileUpdate): void {
    if (update.action === "restamp") this.store.restamp(update.fileId, update.stamp);
    if (update.action === "drop") this.drop(relative);
    if (update.action !== "write") return;
    this.pending.push(update.file);
    this.changed++;
    if (this.pending.length >= filesPerWrite) this.flush();
  }

  drop(relative: string): void {
    this.dropped.push(relative);
  }

  flush(): void {
    if (this.pending.length === 0 && this.dropped.length === 0) return;
    this.removed += this.store.write(this.pending, this.dropped);
    this.pending = [];
    this.dropped = [];
  }
}
