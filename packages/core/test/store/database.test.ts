import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { Worker } from "node:worker_threads";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, SessionStore, writeEmptyDatabase } from "../../src/store/index.js";
import { migrations } from "../../src/store/migrations.js";
import { createStoreTestBed, type StoreTestBed } from "./storeTestBed.js";

let bed: StoreTestBed;
beforeEach(() => {
  bed = createStoreTestBed();
});
afterEach(() => bed.cleanup());

const pragma = (db: DatabaseSync, name: string) =>
  Object.values(db.prepare(`PRAGMA ${name}`).get() as Record<string, unknown>)[0];

const tableNames = (db: DatabaseSync) =>
  (
    db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").all() as {
      name: string;
    }[]
  ).map((row) => row.name);

describe("SessionStore.open", () => {
  it("creates the file and its directory, in WAL mode, at the latest schema version", () => {
    expect(existsSync(bed.dbPath)).toBe(false);
    const store = bed.open();
    expect(existsSync(bed.dbPath)).toBe(true);
    expect(pragma(store.db, "journal_mode")).toBe("wal");
    expect(pragma(store.db, "user_version")).toBe(migrations.length);
    expect(pragma(store.db, "foreign_keys")).toBe(1);
    expect(tableNames(store.db)).toEqual(
      expect.arrayContaining([
        "sessions",
        "messages",
        "parts",
        "runs",
        "tool_calls",
        "approvals",
        "spans",
        "usage",
      ]),
    );
  });

  it("re-opens an existing database without migrating it again or losing data", () => {
    const first = bed.open();
    first.ensureSession({ id: "s1", projectRoot: "/p", mode: "agent", model: "openai:gpt-4.1" });
    const tables = tableNames(first.db);
    first.close();

    const second = bed.open();
    expect(pragma(second.db, "user_version")).toBe(migrations.length);
    expect(pragma(second.db, "journal_mode")).toBe("wal");
    expect(tableNames(second.db)).toEqual(tables);
    expect(second.listSessions().map((session) => session.id)).toEqual(["s1"]);
    second.close();
    expect(bed.open().integrityCheck()).toBe("ok");
  });

  it("refuses a database from a newer Lathe with E_STORAGE and leaves its file as it was", () => {
    mkdirSync(path.dirname(bed.dbPath), { recursive: true });
    const future = new DatabaseSync(bed.dbPath);
    future.exec(`CREATE TABLE future_things (id TEXT); PRAGMA user_version = ${migrations.length + 1}`);
    future.close();
    const before = readFileSync(bed.dbPath);

    const outcome = SessionStore.open(bed.dbPath);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe("E_STORAGE");
    expect(outcome.error.message).toContain(`schema version ${migrations.length + 1}`);

    expect(readFileSync(bed.dbPath).equals(before)).toBe(true);
    expect(existsSync(`${bed.dbPath}-wal`)).toBe(false);
    const check = new DatabaseSync(bed.dbPath, { readOnly: true });
    expect(pragma(check, "user_version")).toBe(migrations.length + 1);
    expect(pragma(check, "journal_mode")).toBe("delete");
    expect(tableNames(check)).toEqual(["future_things"]);
    check.close();
  });

  it("reports a file that is not a database as E_STORAGE", () => {
    mkdirSync(path.dirname(bed.dbPath), { recursive: true });
    const notes = Buffer.from("these are my notes, not a database\n".repeat(200));
    writeFileSync(bed.dbPath, notes);
    const outcome = SessionStore.open(bed.dbPath);
    expect(outcome.ok ? "opened" : outcome.error.code).toBe("E_STORAGE");
    expect(readFileSync(bed.dbPath).equals(notes)).toBe(true);
  });

  it("migrates once when another process migrates the same new database at the same moment", async () => {
    mkdirSync(path.dirname(bed.dbPath), { recursive: true });
    // The other process has read user_version 0 and holds the write lock while it runs migration 1;
    // it commits only after this thread has also read version 0 and is waiting for that lock.
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const other = new Worker(
      `
      const { DatabaseSync } = process.getBuiltinModule("node:sqlite");
      const { workerData } = process.getBuiltinModule("node:worker_threads");
      const db = new DatabaseSync(workerData.path);
      db.exec("PRAGMA journal_mode = WAL");
      db.exec("BEGIN IMMEDIATE");
      Atomics.store(workerData.flag, 0, 1);
      Atomics.notify(workerData.flag, 0);
      Atomics.wait(workerData.flag, 0, 1, 300);
      workerData.migrations.forEach((sql, index) => {
        db.exec(sql);
        db.exec("PRAGMA user_version = " + (index + 1));
      });
      db.exec("COMMIT");
      db.close();
      `,
      { eval: true, workerData: { path: bed.dbPath, flag, migrations } },
    );
    const exited = new Promise<number>((resolve) => other.once("exit", resolve));
    Atomics.wait(flag, 0, 0, 5_000);

    const outcome = SessionStore.open(bed.dbPath);
    expect(outcome.ok ? "opened" : outcome.error.message).toBe("opened");
    expect(await exited).toBe(0);
    if (!outcome.ok) return;
    expect(pragma(outcome.value.db, "user_version")).toBe(migrations.length);
    expect(outcome.value.integrityCheck()).toBe("ok");
    outcome.value.close();
  });

  it("integrityCheck says ok for a database in use", () => {
    const store = bed.open();
    store.ensureSession({ id: "s1", projectRoot: "/p", mode: "agent", model: "m" });
    expect(store.integrityCheck()).toBe("ok");
  });
});

describe("a new database from the build's empty one", () => {
  const schemaOf = (db: DatabaseSync) =>
    db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name").all();

  function template(): string {
    const file = path.join(bed.dir, "template", "empty.db");
    mkdirSync(path.dirname(file), { recursive: true });
    expect(writeEmptyDatabase(file)).toEqual({ ok: true });
    return file;
  }

  it("is one file at the latest schema, with no write-ahead log beside it", () => {
    const file = template();
    expect(readdirSync(path.dirname(file))).toEqual(["empty.db"]);
    const db = new DatabaseSync(file);
    expect(pragma(db, "user_version")).toBe(migrations.length);
    expect(pragma(db, "journal_mode")).toBe("wal");
    db.close();
  });

  it("has exactly the schema that migrating a new file gives, and is the user's alone", () => {
    const file = template();
    const copied = openDatabase(path.join(bed.dir, "a", "sessions.db"), file);
    const migrated = openDatabase(path.join(bed.dir, "b", "sessions.db"), "");
    if (!copied.ok || !migrated.ok) throw new Error("not opened");
    expect(schemaOf(copied.db)).toEqual(schemaOf(migrated.db));
    expect(schemaOf(copied.db).length).toBeGreaterThan(10);
    expect(pragma(copied.db, "user_version")).toBe(migrations.length);
    expect(pragma(copied.db, "foreign_keys")).toBe(1);
    expect(statSync(path.join(bed.dir, "a", "sessions.db")).mode & 0o777).toBe(0o600);
    expect(readdirSync(path.join(bed.dir, "a")).filter((name) => name.endsWith(".new"))).toEqual([]);
    copied.db.close();
    migrated.db.close();
  });

  it("never replaces a database that is already there", () => {
    const file = template();
    const first = bed.open();
    first.ensureSession({ id: "s1", projectRoot: "/p", mode: "agent", model: "openai:gpt-4.1" });
    first.close();
    const again = openDatabase(bed.dbPath, file);
    if (!again.ok) throw new Error(again.error.message);
    expect(again.db.prepare("SELECT id FROM sessions").all()).toEqual([{ id: "s1" }]);
    again.db.close();
  });

  it("migrates the rest of the way from an older empty database", () => {
    const file = path.join(bed.dir, "old.db");
    const old = new DatabaseSync(file);
    old.exec(migrations[0]!);
    old.exec("PRAGMA user_version = 1");
    old.close();
    const opened = openDatabase(path.join(bed.dir, "c", "sessions.db"), file);
    const migrated = openDatabase(path.join(bed.dir, "d", "sessions.db"), "");
    if (!opened.ok || !migrated.ok) throw new Error("not opened");
    expect(pragma(opened.db, "user_version")).toBe(migrations.length);
    expect(schemaOf(opened.db)).toEqual(schemaOf(migrated.db));
    opened.db.close();
    migrated.db.close();
  });
});
