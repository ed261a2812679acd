import path from "node:path";
import { parseFile } from "../parsing/parseFile.js";
import { chunkTerms } from "../search/chunkTerms.js";
import { symbolInfoOf } from "../symbolInfo.js";
import { chunkFile } from "./chunkFile.js";
import { snapshotOf, stampOf } from "./fileSnapshot.js";
import type { IndexedFile, StoredFile } from "./indexStore.js";

/** What the index must do about one file. */
export type FileUpdate =
  | { action: "keep" }
  /** Same content under a new modification time or size: only the stamp is written. */
  | { action: "restamp"; fileId: number; stamp: { mtimeMs: number; size: number } }
  | { action: "write"; file: IndexedFile }
  /** Gone, or no longer indexable (binary, too large): dropped from the index if it was there. */
  | { action: "drop" };

/**
 * Compares a file with what the index holds: unchanged modification time and size mean unchanged
 * (the file is not read); otherwise it is read and hashed, and re-chunked only when the hash differs.
 */
export async function updateFor(
  projectRoot: string,
  relative: string,
  stored: StoredFile | undefined,
): Promise<FileUpdate> {
  const absolute = path.join(projectRoot, ...relative.split("/"));
  const stamp = await stampOf(absolute);
  if (stamp === undefined) return { action: "drop" };
  if (stored !== undefined && stored.mtimeMs === stamp.mtimeMs && stored.size === stamp.size) {
    return { action: "keep" };
  }
  const snapshot = await snapshotOf(absolute, stamp);
  if (snapshot.state === "skipped") return { action: "drop" };
  if (stored !== undefined && stored.hash === snapshot.hash) {
    return { action: "restamp", fileId: stored.id, stamp };
  }
  return { action: "write", file: await indexedFile(relative, snapshot.text, snapshot.hash, stamp) };
}

async function indexedFile(
  relative: string,
  text: string,
  hash: string,
  stamp: { mtimeMs: number; size: number },
): Promise<IndexedFile> {
  const parsed = await parseOrUndefined(relative, text);
  const chunks = chunkFile(text, parsed?.symbols).map((chunk) => ({ chunk, ...chunkTerms(chunk, relative) }));
  const symbols = (parsed?.symbols ?? []).map((symbol) => ({
    ...symbolInfoOf(symbol),
    visibility: symbol.visibility,
  }));
  return { path: relative, stamp, hash, symbols, references: parsed?.references ?? new Map(), chunks };
}

/**
 * A grammar that fails to load (a damaged install) must not stop the index: the file is then
 * indexed as plain text, in windows, like a language without a grammar.
 */
async function parseOrUndefined(relative: string, text: string) {
  try {
    return await parseFile(relative, text);
  } catch {
    return undefined;
  }
}
