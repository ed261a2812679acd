import type { DatabaseSync } from "node:sqlite";
import { type TodoItem, todoItemSchema } from "@lathe/protocol";
import { inTransaction } from "./database.js";

export interface SaveTodosOptions {
  /** Applied to each todo's text, as the session store does to everything it writes. */
  redact?: (text: string) => string;
}

/** Rows are checked on the way out, against the protocol's own todo shape. */
const todoRowSchema = todoItemSchema;

/**
 * Replaces the session's stored todo list with `todos`, in one transaction so a crash leaves the
 * old list or the new one, never a mix. The session's row must exist (foreign key).
 */
export function saveTodos(
  db: DatabaseSync,
  sessionId: string,
  todos: readonly TodoItem[],
  options: SaveTodosOptions = {},
): void {
  const redact = options.redact ?? ((text: string) => text);
  const now = Date.now();
  inTransaction(db, () => {
    db.prepare("DELETE FROM todos WHERE session_id = ?").run(sessionId);
    const insert = db.prepare(
      "INSERT INTO todos (session_id, id, content, status, position, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
    );
    todos.forEach((todo, position) => {
      insert.run(sessionId, todo.id, redact(todo.content), todo.status, position, now);
    });
  });
}

/** The session's todo list in its saved order; empty when it has none. */
export function loadTodos(db: DatabaseSync, sessionId: string): TodoItem[] {
  const rows = db
    .prepare("SELECT id, content, status FROM todos WHERE session_id = ? ORDER BY position")
    .all(sessionId);
  return rows.map((row) => todoRowSchema.parse(row));
}
