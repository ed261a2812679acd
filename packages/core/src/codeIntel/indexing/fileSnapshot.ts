import { createHash } from "node:crypto";
import { lstat, readFile } from "node:fs/promises";
import { decodeSearchText } from "../../fileSystem/fileTextDecoding.js";

/** Larger files are generated or data, not code someone will ask about. */
export const maxIndexedBytes = 1024 * 1024;

export interface FileStamp {
  mtimeMs: number;
  size: number;
}

export type FileSnapshot =
  | { state: "text"; stamp: FileStamp; hash: string; text: string }
  /** Missing, not a regular file, too large or binary: not indexed. */
  | { state: "skipped" };

/** The file's modification time and size, the cheap check for "unchanged"; undefined when missing. */
export async function stampOf(absolute: string): Promise<FileStamp | undefined> {
  try {
    const stats = await lstat(absolute);
    return stats.isFile() ? { mtimeMs: stats.mtimeMs, size: stats.size } : undefined;
  } catch {
    return undefined;
  }
}

/** Reads a file to index: its text and the SHA-1 of its bytes. */
export async function snapshotOf(absolute: string, stamp: FileStamp): Promise<FileSnapshot> {
  if (stamp.size > maxIndexedBytes) return { state: "skipped" };
  let bytes: Buffer;
  try {
    bytes = await readFile(absolute);
  } catch {
    return { state: "skipped" };
  }
  // Decoded as search_files decodes: byte-order marks honoured, a NUL byte means binary.
  const text = bytes.length > maxIndexedBytes ? undefined : decodeSearchText(bytes);
  if (text === undefined) return { state: "skipped" };
  return { state: "text", stamp, hash: createHash("sha1").update(bytes).digest("hex"), text };
}
