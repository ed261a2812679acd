import type { Stats } from "node:fs";
import { stat } from "node:fs/promises";

/**
 * `stat`, with "does not exist" as undefined. Other failures (permissions, I/O) still throw, so
 * they are reported as what they are rather than as a missing file.
 */
export async function statIfExists(filePath: string): Promise<Stats | undefined> {
  try {
    return await stat(filePath);
  } catch (error) {
    const code = typeof error === "object" && error !== null && "code" in error ? error.code : undefined;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  }
}
