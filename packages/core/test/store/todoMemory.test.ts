import type { TodoItem } from "@lathe/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SessionTodoList } from "../../src/planning/todoList.js";
import type { SessionStore } from "../../src/store/index.js";
import { memoryPromptLimits, SqliteMemoryBook } from "../../src/store/memoryRecords.js";
import { loadTodos, saveTodos } from "../../src/store/todoRecords.js";
import { countRows, createStoreTestBed, type StoreTestBed } from "./storeTestBed.js";

let bed: StoreTestBed;
let store: SessionStore;
beforeEach(() => {
  bed = createStoreTestBed();
  store = bed.open();
  for (const id of ["s1", "s2"]) store.ensureSession({ id, projectRoot: "/p", mode: "agent", model: "m" });
});
afterEach(() => bed.cleanup());

const plan: TodoItem[] = [
  { id: "b", content: "Read the code", status: "completed" },
  { id: "a", content: "Fix the bug", status: "in_progress" },
  { id: "c", content: "Run the tests", status: "pending" },
];

describe("todo records", () => {
  it("saves a session's list in order and loads it back", () => {
    saveTodos(store.db, "s1", plan);
    expect(loadTodos(store.db, "s1")).toEqual(plan);
    expect(loadTodos(store.db, "s2")).toEqual([]);
    saveTodos(store.db, "s1", [plan[2]!, plan[0]!]);
    expect(loadTodos(store.db, "s1")).toEqual([plan[2], plan[0]]);
    expect(countRows(store, "todos", "s1")).toBe(2);
  });

  it("replaces in one transaction: a failed save keeps the old list", () => {
    saveTodos(store.db, "s1", plan);
    const twice = [plan[0]!, { ...plan[0]!, content: "again" }];
    expect(() => saveTodos(store.db, "s1", twice)).toThrow();
    expect(loadTodos(store.db, "s1")).toEqual(plan);
  });

  it("redacts the text it stores", () => {
    saveTodos(store.db, "s1", [{ id: "1", content: "Use key sk-abc", status: "pending" }], {
      redact: (text) => text.replace("sk-abc", "[redacted]"),
    });
    expect(loadTodos(store.db, "s1")[0]?.content).toBe("Use key [redacted]");
  });

  it("round-trips a session's list through a reopened database", () => {
    const list = new SessionTodoList({ persist: (todos) => saveTodos(store.db, "s1", todos) });
    list.write(plan, false);
    list.write([{ id: "d", content: "Update the docs", status: "pending" }], true);
    list.cancelAll();
    store.close();

    const reopened = bed.open();
    const resumed = new SessionTodoList({ initial: loadTodos(reopened.db, "s1") });
    expect(resumed.current()).toEqual([
      { id: "b", content: "Read the code", status: "completed" },
      { id: "a", content: "Fix the bug", status: "cancelled" },
      { id: "c", content: "Run the tests", status: "cancelled" },
      { id: "d", content: "Update the docs", status: "cancelled" },
    ]);
    expect(resumed.progress()).toEqual({ completed: 1, live: 1, cancelled: 3 });
  });
});

describe("SqliteMemoryBook", () => {
  const bookFor = (projectRoot: string, redact?: (text: string) => string) =>
    new SqliteMemoryBook({ db: store.db, projectRoot, redact });

  it("keeps project memories per project and user memories for all", () => {
    const p = bookFor("/p");
    const q = bookFor("/q");
    const pNote = p.add("Use pnpm here", "project");
    const userNote = p.add("Answer in French", "user");
    const qNote = q.add("Tests need Docker", "project");
    expect(p.list()).toEqual([
      { id: userNote.id, scope: "user", content: "Answer in French" },
      { id: pNote.id, scope: "project", content: "Use pnpm here" },
    ]);
    expect(q.list()).toEqual([
      { id: userNote.id, scope: "user", content: "Answer in French" },
      { id: qNote.id, scope: "project", content: "Tests need Docker" },
    ]);
    // A project that has never had a session or a memory still sees the user's.
    expect(
      bookFor("/r")
        .list()
        .map((memory) => memory.scope),
    ).toEqual(["user"]);
  });

  it("stores project memories under the session store's project row, creating it when missing", () => {
    const sessionProject = store.db.prepare("SELECT id FROM projects WHERE root = '/p'").get() as {
      id: string;
    };
    bookFor("/p").add("Use pnpm here", "project");
    bookFor("/q").add("Tests need Docker", "project");
    bookFor("/q").add("Lint with Biome", "project");
    const rows = store.db
      .prepare(
        "SELECT p.root, m.project_id FROM memories m JOIN projects p ON p.id = m.project_id ORDER BY m.id",
      )
      .all() as { root: string; project_id: string }[];
    expect(rows[0]).toEqual({ root: "/p", project_id: sessionProject.id });
    expect(rows.map((row) => row.root)).toEqual(["/p", "/q", "/q"]);
    expect(rows[1]?.project_id).toBe(rows[2]?.project_id);
    expect(countRows(store, "projects")).toBe(2);
    bookFor("/p").add("Answer in French", "user");
    expect(store.db.prepare("SELECT COUNT(*) AS n FROM memories WHERE project_id IS NULL").get()).toEqual({
      n: 1,
    });
  });

  it("updates and removes only the memories it can see", () => {
    const p = bookFor("/p");
    const q = bookFor("/q");
    const mine = p.add("Use pnpm", "project");
    const theirs = q.add("Use yarn", "project");
    const shared = q.add("Answer in French", "user");
    expect(p.update(mine.id, "Use pnpm 9")).toBe(true);
    expect(p.update(theirs.id, "Use npm")).toBe(false);
    expect(p.update(shared.id, "Answer in English")).toBe(true);
    expect(p.remove(theirs.id)).toBe(false);
    expect(p.update("no-such-id", "x")).toBe(false);
    expect(q.list().map((memory) => memory.content)).toEqual(["Answer in English", "Use yarn"]);
    expect(p.remove(mine.id)).toBe(true);
    expect(p.remove(mine.id)).toBe(false);
    expect(p.list().map((memory) => memory.content)).toEqual(["Answer in English"]);
  });

  it("passes content through redact before storing it", () => {
    const book = bookFor("/p", (text) => text.replaceAll("hunter2", "[redacted]"));
    const { id } = book.add("The staging password is hunter2", "project");
    expect(book.list()[0]?.content).toBe("The staging password is [redacted]");
    book.update(id, "Still hunter2");
    expect(book.list()[0]?.content).toBe("Still [redacted]");
  });

  it("gives the prompt the user's memories then the project's, labelled, newest last", () => {
    const book = bookFor("/p");
    const first = book.add("Use pnpm", "project");
    const second = book.add("Answer in French", "user");
    const third = book.add("Tests need Docker", "project");
    expect(book.memoriesForPrompt()).toEqual([
      `[user memory ${second.id}] Answer in French`,
      `[project memory ${first.id}] Use pnpm`,
      `[project memory ${third.id}] Tests need Docker`,
    ]);
  });

  it("cuts each memory to 1,000 characters and drops the oldest past 4,000 in all", () => {
    const book = bookFor("/p");
    const { maxEach, maxTotal } = memoryPromptLimits;
    const long = book.add("L".repeat(5000), "project");
    const entries = book.memoriesForPrompt();
    expect(entries).toEqual([`[project memory ${long.id}] ${"L".repeat(maxEach - 1)}…`]);

    // Each entry is its label (~54 characters) and 1,000 characters: four of them do not fit.
    const user = book.add("U".repeat(2000), "user");
    const newer = [book.add("A".repeat(2000), "project"), book.add("B".repeat(2000), "project")];
    const kept = book.memoriesForPrompt();
    expect(kept.map((entry) => entry.slice(0, entry.indexOf("]") + 1))).toEqual([
      `[user memory ${user.id}]`,
      `[project memory ${newer[0]!.id}]`,
      `[project memory ${newer[1]!.id}]`,
    ]);
    expect(kept.join("").length).toBeLessThanOrEqual(maxTotal);
    expect(book.list()).toHaveLength(4);
  });
});
