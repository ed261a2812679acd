import type { DatabaseSync } from "node:sqlite";
import { type MemoryEntry, type MemoryScope, newId } from "@lathe/protocol";
import { inTransaction } from "./database.js";

export type { MemoryEntry } from "@lathe/protocol";

/**
 * Long-lived notes for later sessions (SPEC §4 `update_memory`): per project or for the user.
 * The port `update_memory` writes through; `SqliteMemoryBook` is the one the engine hands it.
 */
export interface MemoryBook {
  list(): MemoryEntry[];
  add(content: string, scope: MemoryScope): { id: string };
  update(id: string, content: string): boolean;
  remove(id: string): boolean;
}

/** What later sessions get of the memories (SPEC §6 L4): a bounded slice of every prompt. */
export const memoryPromptLimits = { maxEach: 1000, maxTotal: 4000 } as const;

export interface SqliteMemoryBookOptions {
  db: DatabaseSync;
  /** Project memories belong to the `projects` row of this root. */
  projectRoot: string;
  /** Applied to the content before it is stored, so a known secret never reaches the database. */
  redact?: (text: string) => string;
}

interface MemoryRow {
  id: string;
  project_id: string | null;
  content: string;
}

/** This project's memories and the user's (project_id NULL); other projects' stay out of reach. */
const visible = "(project_id IS NULL OR project_id IN (SELECT id FROM projects WHERE root = ?))";

/**
 * Long-lived notes (SPEC §4 `update_memory`) in the session database: per project, or for the
 * user across every project.
 */
export class SqliteMemoryBook implements MemoryBook {
  private readonly db: DatabaseSync;
  private readonly projectRoot: string;
  private readonly redact: (text: string) => string;

  constructor(options: SqliteMemoryBookOptions) {
    this.db = options.db;
    this.projectRoot = options.projectRoot;
    this.redact = options.redact ?? ((text) => text);
  }

  /** The user's memories, then the project's, each oldest first. */
  list(): MemoryEntry[] {
    const rows = this.db
      .prepare(
        `SELECT id, project_id, content FROM memories WHERE ${visible}
         ORDER BY project_id IS NOT NULL, created_at, id`,
      )
      .all(this.projectRoot) as unknown as MemoryRow[];
    return rows.map((row) => ({
      id: row.id,
      scope: row.project_id === null ? "user" : "project",
      content: row.content,
    }));
  }

  add(content: string, scope: MemoryScope): { id: string } {
    const now = Date.now();
    const id = newId(now);
    inTransaction(this.db, () => {
      const projectId = scope === "project" ? this.projectId(now) : null;
      this.db
        .prepare(
          "INSERT INTO memories (id, project_id, content, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
        )
        .run(id, projectId, this.redact(content), now, now);
    });
    return { id };
  }

  update(id: string, content: string): boolean {
    const result = this.db
      .prepare(`UPDATE memories SET content = ?, updated_at = ? WHERE id = ? AND ${visible}`)
      .run(this.redact(content), Date.now(), id, this.projectRoot);
    return result.changes > 0;
  }

  remove(id: string): boolean {
    const result = this.db
      .prepare(`DELETE FROM memories WHERE id = ? AND ${visible}`)
      .run(id, this.projectRoot);
    return result.changes > 0;
  }

  /**
   * The memories for the system prompt: the user's then the project's, newest last, each labelled
   * with its scope and id (so the model can update or delete it) and cut to 1,000 characters of
   * content. Entries total at most 4,000 characters; the oldest are dropped first.
   */
  memoriesForPrompt(): string[] {
    const entries = this.list().map((memory) => ({ id: memory.id, text: promptEntry(memory) }));
    // Newest first: ids are time-ordered, so sorting them descending walks back in time.
    const newestFirst = [...entries].sort((a, b) => (a.id < b.id ? 1 : -1));
    const kept = new Set<string>();
    let total = 0;
    for (const entry of newestFirst) {
      total += entry.text.length;
      if (total > memoryPromptLimits.maxTotal) break;
      kept.add(entry.id);
    }
    return entries.filter((entry) => kept.has(entry.id)).map((entry) => entry.text);
  }

  /** Found by root, created when missing, the way the session store does. */
  private projectId(now: number): string {
    const found = this.db.prepare("SELECT id FROM projects WHERE root = ?").get(this.projectRoot) as
      | { id: string }
      | undefined;
    if (found) return found.id;
    const id = newId(now);
    this.db
      .prepare("INSERT INTO projects (id, root, created_at) VALUES (?, ?, ?)")
      .run(id, this.projectRoot, now);
    return id;
  }
}

function promptEntry(memory: MemoryEntry): string {
  const content =
    memory.content.length > memoryPromptLimits.maxEach
      ? `${memory.content.slice(0, memoryPromptLimits.maxEach - 1)}…`
      : memory.content;
  return `[${memory.scope} memory ${memory.id}] ${content}`;
}
