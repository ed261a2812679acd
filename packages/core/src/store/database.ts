import { chmodSync, copyFileSync, existsSync, linkSync, mkdirSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { assetUrl } from "../assetPath.js";
import { migrations } from "./migrations.js";

export type DatabaseOutcome = { ok: true; db: DatabaseSync } | { ok: false; error: LatheErrorInfo };

/**
 * The empty database at the latest schema that the build writes (scripts/session-database.mjs):
 * a new `$LATHE_HOME` starts from a copy of it rather than running every migration, whose DDL
 * SQLite parses again after each statement (~6 ms of a first run). Absent when running from src/.
 */
export const emptyDatabaseTemplate = fileURLToPath(assetUrl("store/emptySessions.db"));

/**
 * Opens (creating when absent) the session database and brings its schema up to date.
 * node:sqlite is built into the Node we require, so no native module has to be compiled at
 * install time; its synchronous API lets a write finish before the event that announces it.
 */
export function openDatabase(path: string, template = emptyDatabaseTemplate): DatabaseOutcome {
  let db: DatabaseSync | undefined;
  try {
    if (path !== ":memory:") {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      copyTemplateIfNew(path, template);
    }
    db = new DatabaseSync(path);
    // First, so that another process creating or migrating the same file is waited for, not failed on.
    db.exec("PRAGMA busy_timeout = 5000");
    // Before the journal mode is set: a newer Lathe's database is left exactly as it was.
    const version = userVersion(db);
    if (version > migrations.length) {
      db.close();
      return {
        ok: false,
        error: errorInfo(
          "E_STORAGE",
          `The session database has schema version ${version}, newer than this Lathe knows (${migrations.length}). Update Lathe.`,
        ),
      };
    }
    // WAL: readers never block the writer, and a killed process loses at most the open transaction.
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA synchronous = NORMAL");
    db.exec("PRAGMA foreign_keys = ON");
    const migrated = migrate(db, version);
    if (!migrated.ok) {
      db.close();
      return migrated;
    }
    return { ok: true, db };
  } catch (error) {
    if (db?.isOpen) db.close();
    return { ok: false, error: storageError(`Cannot open the session database ${path}`, error) };
  }
}

/**
 * Puts a copy of `template` at `path` when nothing is there. The copy is made aside and linked into
 * place, which fails when another process created the database meanwhile: theirs stands. Without a
 * template the database is created empty and migrated, as before.
 */
function copyTemplateIfNew(path: string, template: string): void {
  if (existsSync(path) || !existsSync(template)) return;
  const aside = `${path}.${process.pid}.new`;
  try {
    copyFileSync(template, aside);
    chmodSync(aside, 0o600);
    linkSync(aside, path);
  } catch {
    // Created by another process first, or the copy failed: opening below creates or migrates it.
  } finally {
    rmSync(aside, { force: true });
  }
}

/**
 * Writes an empty database at the latest schema to `path`, for new databases to start from: one
 * file, no write-ahead log beside it.
 */
export function writeEmptyDatabase(path: string): { ok: true } | { ok: false; error: LatheErrorInfo } {
  rmSync(path, { force: true });
  const opened = openDatabase(path, "");
  if (!opened.ok) return opened;
  opened.db.exec("VACUUM");
  opened.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  opened.db.close();
  rmSync(`${path}-wal`, { force: true });
  rmSync(`${path}-shm`, { force: true });
  return { ok: true };
}

function userVersion(db: DatabaseSync): number {
  return (db.prepare("PRAGMA user_version").get() as { user_version: number }).user_version;
}

function migrate(db: DatabaseSync, version: number): { ok: true } | { ok: false; error: LatheErrorInfo } {
  for (let next = version; next < migrations.length; next++) {
    db.exec("BEGIN IMMEDIATE");
    try {
      // Read again under the write lock: another process may have run it while this one waited.
      if (userVersion(db) === next) {
        db.exec(migrations[next]!);
        db.exec(`PRAGMA user_version = ${next + 1}`);
      }
      db.exec("COMMIT");
    } catch (error) {
      db.exec("ROLLBACK");
      return { ok: false, error: storageError(`Migration ${next + 1} failed`, error) };
    }
  }
  return { ok: true };
}

export function storageError(what: string, error: unknown): LatheErrorInfo {
  return errorInfo("E_STORAGE", `${what}: ${error instanceof Error ? error.message : String(error)}`);
}

/** Runs `work` in one transaction: all of it is written, or none. */
export function inTransaction<T>(db: DatabaseSync, work: () => T): T {
  db.exec("BEGIN IMMEDIATE");
  try {
    const result = work();
    db.exec("COMMIT");
    return result;
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  }
}
