import { type SessionStore, SqliteMemoryBook } from "@lathe/core";
import type { MemoryList } from "@lathe/protocol";
import { type ServiceResult, served, serviceError } from "@lathe/server";

type Memory = MemoryList["memories"][number];

/** Titles are the first line of a memory, cut to fit a list row. */
const titleLength = 80;

/** The memories a session in the project sees: the user's, then the project's, each oldest first. */
export function listMemories(store: SessionStore, projectRoot: string): ServiceResult<MemoryList> {
  const book = new SqliteMemoryBook({ db: store.db, projectRoot });
  // The book's entries carry no times; the row has them.
  const updatedAt = store.db.prepare("SELECT updated_at FROM memories WHERE id = ?");
  const memories = book.list().map(
    (entry): Memory => ({
      id: entry.id,
      title: titleOf(entry.content),
      content: entry.content,
      scope: entry.scope,
      updatedAt: Number((updatedAt.get(entry.id) as { updated_at: number } | undefined)?.updated_at ?? 0),
    }),
  );
  return served({ memories });
}

/** Only a memory the project can see: another project's stay out of reach, as for the agent. */
export function deleteMemory(
  store: SessionStore,
  projectRoot: string,
  id: string,
): ServiceResult<{ deleted: true }> {
  const book = new SqliteMemoryBook({ db: store.db, projectRoot });
  if (book.remove(id)) return served({ deleted: true });
  return serviceError("not_found", "E_MEMORY_NOT_FOUND", `No memory ${id} in ${projectRoot}.`);
}

function titleOf(content: string): string {
  const line = content.trim().split("\n")[0]?.trim() ?? "";
  return line.length > titleLength ? `${line.slice(0, titleLength - 1)}…` : line;
}
