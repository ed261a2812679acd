import type { DatabaseSync, StatementSync } from "node:sqlite";
import { inTransaction } from "../../store/database.js";
import type { IndexedSymbol } from "../symbolInfo.js";
import type { Chunk } from "./chunkFile.js";
import type { FileStamp } from "./fileSnapshot.js";

/**
 * The version of what is stored per file (terms, chunks, symbols). Raise it whenever tokenizing,
 * chunking or symbol extraction changes, so that existing indexes are rebuilt.
 */
export const indexFormat = 1;

export interface StoredFile {
  id: number;
  hash: string;
  mtimeMs: number;
  size: number;
}

/** A file as it goes into the index: its chunks, each with its weighted term frequencies. */
export interface IndexedFile {
  path: string;
  stamp: FileStamp;
  hash: string;
  symbols: readonly IndexedSymbol[];
  references: ReadonlyMap<string, number>;
  chunks: readonly { chunk: Chunk; terms: ReadonlyMap<string, number>; length: number }[];
}

export interface Posting {
  chunkId: number;
  fileId: number;
  tf: number;
  length: number;
}

export interface StoredChunk {
  id: number;
  path: string;
  startLine: number;
  endLine: number;
  symbol: string | null;
  kind: string | null;
  text: string;
}

/**
 * The code index's rows for one project root (tables of migration 2). Every method is one
 * synchronous statement or transaction: the caller never holds a transaction across an await, so
 * other users of the same connection (the session store) are never caught inside one.
 */
export class IndexStore {
  private readonly statements = new Map<string, StatementSync>();
  readonly rootId: number;

  /**
   * Opens the rows of `root`. An index written in another format (an older tokenizer or chunker)
   * is cleared, so that the next refresh rebuilds it: unchanged files would otherwise keep their
   * old terms forever.
   */
  constructor(
    private readonly db: DatabaseSync,
    root: string,
  ) {
    this.sql("INSERT INTO code_roots (root, format) VALUES (?, ?) ON CONFLICT (root) DO NOTHING").run(
      root,
      indexFormat,
    );
    const row = this.sql("SELECT id, format FROM code_roots WHERE root = ?").get(root) as {
      id: number;
      format: number;
    };
    this.rootId = row.id;
    if (row.format !== indexFormat) this.clear();
  }

  files(): Map<string, StoredFile> {
    const rows = this.sql(
      "SELECT id, path, hash, mtime_ms AS mtimeMs, size FROM code_files WHERE root_id = ?",
    ).all(this.rootId) as unknown as (StoredFile & { path: string })[];
    return new Map(rows.map(({ path, ...file }) => [path, file]));
  }

  file(path: string): StoredFile | undefined {
    return this.sql(
      "SELECT id, hash, mtime_ms AS mtimeMs, size FROM code_files WHERE root_id = ? AND path = ?",
    ).get(this.rootId, path) as StoredFile | undefined;
  }

  /** Records that a file whose stamp changed still has the same content. */
  restamp(fileId: number, stamp: FileStamp): void {
    this.sql("UPDATE code_files SET mtime_ms = ?, size = ? WHERE id = ?").run(
      stamp.mtimeMs,
      stamp.size,
      fileId,
    );
  }

  /**
   * Replaces whatever the index held for `files` and drops `removed`, in one transaction; returns
   * how many of `removed` were in the index.
   */
  write(files: readonly IndexedFile[], removed: readonly string[]): number {
    return inTransaction(this.db, () => {
      let dropped = 0;
      for (const path of removed) if (this.deleteFile(path)) dropped++;
      for (const file of files) {
        this.deleteFile(file.path);
        this.insertFile(file);
      }
      return dropped;
    });
  }

  fileCount(): number {
    const row = this.sql("SELECT COUNT(*) AS count FROM code_files WHERE root_id = ?").get(this.rootId) as {
      count: number;
    };
    return row.count;
  }

  postings(term: string): Posting[] {
    return this.sql(
      `SELECT p.chunk_id AS chunkId, c.file_id AS fileId, p.tf, c.length
       FROM code_postings p JOIN code_chunks c ON c.id = p.chunk_id
       WHERE p.root_id = ? AND p.term = ?`,
    ).all(this.rootId, term) as unknown as Posting[];
  }

  /** The number of chunks and their mean weighted length, for BM25. */
  chunkStats(): { count: number; averageLength: number } {
    const row = this.sql(
      `SELECT COUNT(*) AS count, AVG(c.length) AS average FROM code_chunks c
       JOIN code_files f ON f.id = c.file_id WHERE f.root_id = ?`,
    ).get(this.rootId) as { count: number; average: number | null };
    return { count: row.count, averageLength: row.average ?? 0 };
  }

  chunk(id: number): StoredChunk | undefined {
    return this.sql(
      `SELECT c.id, f.path, c.start_line AS startLine, c.end_line AS endLine, c.symbol, c.kind, c.text
       FROM code_chunks c JOIN code_files f ON f.id = c.file_id WHERE c.id = ? AND f.root_id = ?`,
    ).get(id, this.rootId) as StoredChunk | undefined;
  }

  /** Path and symbol of each of these chunks, by id. */
  chunkFacts(ids: readonly number[]): Map<number, { path: string; symbol: string | null }> {
    const rows = this.sql(
      // CROSS JOIN keeps the id list as the outer loop: each chunk is then one primary-key lookup.
      `SELECT c.id, f.path, c.symbol FROM json_each(?) ids
       CROSS JOIN code_chunks c ON c.id = ids.value CROSS JOIN code_files f ON f.id = c.file_id
       WHERE f.root_id = ?`,
    ).all(JSON.stringify(ids), this.rootId) as { id: number; path: string; symbol: string | null }[];
    return new Map(rows.map(({ id, path, symbol }) => [id, { path, symbol }]));
  }

  symbols(): IndexedSymbol[] {
    return this.sql(
      `SELECT s.name, s.kind, f.path, s.start_line AS startLine, s.end_line AS endLine, s.signature, s.visibility
       FROM code_symbols s JOIN code_files f ON f.id = s.file_id
       WHERE f.root_id = ? ORDER BY f.path, s.start_line`,
    ).all(this.rootId) as unknown as IndexedSymbol[];
  }

  /** Each file's identifier counts, by path. */
  references(): Map<string, Record<string, number>> {
    const rows = this.sql("SELECT path, refs FROM code_files WHERE root_id = ?").all(this.rootId) as {
      path: string;
      refs: string;
    }[];
    return new Map(rows.map((row) => [row.path, JSON.parse(row.refs) as Record<string, number>]));
  }

  /** Chunks without a vector from `model`, with the text to embed. */
  chunksWithoutVector(model: string): { id: number; path: string; text: string }[] {
    return this.sql(
      `SELECT c.id, f.path, c.text FROM code_chunks c JOIN code_files f ON f.id = c.file_id
       LEFT JOIN code_vectors v ON v.chunk_id = c.id AND v.model = ?
       WHERE f.root_id = ? AND v.chunk_id IS NULL ORDER BY c.id`,
    ).all(model, this.rootId) as { id: number; path: string; text: string }[];
  }

  /** Stores vectors; a chunk deleted since it was read is skipped. */
  writeVectors(model: string, vectors: readonly { chunkId: number; vector: Float32Array }[]): void {
    const insert = this.sql(
      `INSERT INTO code_vectors (chunk_id, model, vector) SELECT id, ?, ? FROM code_chunks WHERE id = ?
       ON CONFLICT (chunk_id) DO UPDATE SET model = excluded.model, vector = excluded.vector`,
    );
    inTransaction(this.db, () => {
      for (const { chunkId, vector } of vectors) {
        insert.run(model, new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength), chunkId);
      }
    });
  }

  vectors(model: string): { chunkId: number; fileId: number; vector: Float32Array }[] {
    const rows = this.sql(
      `SELECT v.chunk_id AS chunkId, c.file_id AS fileId, v.vector FROM code_vectors v
       JOIN code_chunks c ON c.id = v.chunk_id JOIN code_files f ON f.id = c.file_id
       WHERE f.root_id = ? AND v.model = ?`,
    ).all(this.rootId, model) as { chunkId: number; fileId: number; vector: Uint8Array }[];
    return rows.map(({ chunkId, fileId, vector }) => ({
      chunkId,
      fileId,
      vector: new Float32Array(vector.buffer, vector.byteOffset, vector.byteLength / 4),
    }));
  }

  /** Ids of the files at or below these relative paths ("." is the whole project). */
  fileIdsUnder(paths: readonly string[]): Set<number> {
    const ids = new Set<number>();
    const query = this.sql(
      "SELECT id FROM code_files WHERE root_id = ? AND (? = '.' OR path = ? OR substr(path, 1, length(?) + 1) = ? || '/')",
    );
    for (const scope of paths) {
      for (const row of query.all(this.rootId, scope, scope, scope, scope) as { id: number }[])
        ids.add(row.id);
    }
    return ids;
  }

  private insertFile(file: IndexedFile): void {
    const refs = JSON.stringify(Object.fromEntries(file.references));
    const inserted = this.sql(
      "INSERT INTO code_files (root_id, path, hash, mtime_ms, size, refs) VALUES (?, ?, ?, ?, ?, ?)",
    ).run(this.rootId, file.path, file.hash, file.stamp.mtimeMs, file.stamp.size, refs);
    const fileId = Number(inserted.lastInsertRowid);
    const insertSymbol = this.sql(
      `INSERT INTO code_symbols (file_id, name, kind, start_line, end_line, signature, visibility)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const { name, kind, startLine, endLine, signature, visibility } of file.symbols) {
      insertSymbol.run(fileId, name, kind, startLine, endLine, signature, visibility);
    }
    const insertChunk = this.sql(
      "INSERT INTO code_chunks (file_id, start_line, end_line, symbol, kind, text, length) VALUES (?, ?, ?, ?, ?, ?, ?)",
    );
    const insertPosting = this.sql(
      "INSERT INTO code_postings (root_id, term, chunk_id, tf) VALUES (?, ?, ?, ?)",
    );
    for (const { chunk, terms, length } of file.chunks) {
      const row = insertChunk.run(
        fileId,
        chunk.startLine,
        chunk.endLine,
        chunk.symbol ?? null,
        chunk.kind ?? null,
        chunk.text,
        length,
      );
      const chunkId = Number(row.lastInsertRowid);
      for (const [term, tf] of terms) insertPosting.run(this.rootId, term, chunkId, tf);
    }
  }

  private clear(): void {
    const chunksOfRoot = `SELECT c.id FROM code_chunks c JOIN code_files f ON f.id = c.file_id WHERE f.root_id = ?`;
    const filesOfRoot = "SELECT id FROM code_files WHERE root_id = ?";
    inTransaction(this.db, () => {
      this.sql("DELETE FROM code_postings WHERE root_id = ?").run(this.rootId);
      this.sql(`DELETE FROM code_vectors WHERE chunk_id IN (${chunksOfRoot})`).run(this.rootId);
      this.sql(`DELETE FROM code_chunks WHERE file_id IN (${filesOfRoot})`).run(this.rootId);
      this.sql(`DELETE FROM code_symbols WHERE file_id IN (${filesOfRoot})`).run(this.rootId);
      this.sql("DELETE FROM code_files WHERE root_id = ?").run(this.rootId);
      this.sql("UPDATE code_roots SET format = ? WHERE id = ?").run(indexFormat, this.rootId);
    });
  }

  /** Whether the file was in the index. */
  private deleteFile(path: string): boolean {
    const row = this.sql("SELECT id FROM code_files WHERE root_id = ? AND path = ?").get(this.rootId, path) as
      | { id: number }
      | undefined;
    if (row === undefined) return false;
    // Children first, so nothing depends on foreign keys being enforced on this connection.
    const ofFile = "SELECT id FROM code_chunks WHERE file_id = ?";
    this.sql(`DELETE FROM code_postings WHERE chunk_id IN (${ofFile})`).run(row.id);
    this.sql(`DELETE FROM code_vectors WHERE chunk_id IN (${ofFile})`).run(row.id);
    this.sql("DELETE FROM code_chunks WHERE file_id = ?").run(row.id);
    this.sql("DELETE FROM code_symbols WHERE file_id = ?").run(row.id);
    this.sql("DELETE FROM code_files WHERE id = ?").run(row.id);
    return true;
  }

  /** Prepared once per text: the same few statements run for every file and query. */
  private sql(text: string): StatementSync {
    let statement = this.statements.get(text);
    if (statement === undefined) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }
}
