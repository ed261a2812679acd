import { lstat } from "node:fs/promises";

/** Files looked up at once: enough to keep the disk busy, few enough to bound memory on huge results. */
const lookupBatchSize = 256;

/**
 * Orders files newest first by modification time (the link itself for a symbolic link), then by
 * path, so recently touched files — usually the relevant ones — come first. A file that vanished
 * since it was found is dropped.
 */
export async function sortRecentFirst(absolutePaths: readonly string[]): Promise<string[]> {
  const dated: { path: string; mtimeMs: number }[] = [];
  for (let start = 0; start < absolutePaths.length; start += lookupBatchSize) {
    const batch = absolutePaths.slice(start, start + lookupBatchSize);
    const times = await Promise.all(batch.map(modificationTime));
    for (const [index, mtimeMs] of times.entries()) {
      const filePath = batch[index];
      if (filePath !== undefined && mtimeMs !== undefined) dated.push({ path: filePath, mtimeMs });
    }
  }
  dated.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return dated.map((entry) => entry.path);
}

async function modificationTime(filePath: string): Promise<number | undefined> {
  try {
    return (await lstat(filePath)).mtimeMs;
  } catch {
    return undefined;
  }
}
