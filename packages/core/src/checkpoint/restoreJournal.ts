import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { open, readFile, rename, unlink } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";

/**
 * The restore in progress, written to the shadow git dir before the first project file is touched
 * and removed after the last: a restore killed half-way is found and finished by the next opener.
 */
const journalName = "lathe-restore.json";

const journalSchema = z.object({
  /** The checkpoint being restored. */
  target: z.string().regex(/^[0-9a-f]{40,64}$/),
  /** The checkpoint taken just before: restoring it undoes the restore. */
  before: z.string().regex(/^[0-9a-f]{40,64}$/),
});

export type RestoreJournal = z.infer<typeof journalSchema>;

export type JournalReading =
  | { state: "none" }
  | { state: "found"; journal: RestoreJournal }
  | { state: "unreadable" };

/** Whether a restore was interrupted: one stat, so opening costs nothing when none was. */
export function restoreJournalExists(gitDir: string): boolean {
  return existsSync(path.join(gitDir, journalName));
}

export async function readRestoreJournal(gitDir: string): Promise<JournalReading> {
  let raw: string;
  try {
    raw = await readFile(path.join(gitDir, journalName), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { state: "none" };
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { state: "unreadable" };
  }
  const parsed = journalSchema.safeParse(json);
  return parsed.success ? { state: "found", journal: parsed.data } : { state: "unreadable" };
}

/** Temp file, flushed, renamed: a journal is whole or absent, never a half-written one. */
export async function writeRestoreJournal(gitDir: string, journal: RestoreJournal): Promise<void> {
  const tempPath = path.join(gitDir, `.${journalName}.${randomBytes(6).toString("hex")}.tmp`);
  const handle = await open(tempPath, "wx", 0o644);
  try {
    await handle.writeFile(JSON.stringify(journal));
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(tempPath, path.join(gitDir, journalName));
}

export async function removeRestoreJournal(gitDir: string): Promise<void> {
  try {
    await unlink(path.join(gitDir, journalName));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
