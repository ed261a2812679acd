import { lstat } from "node:fs/promises";
import path from "node:path";

const lstatBatch = 256;

/**
 * The paths (relative to `root`) of regular files over `maxBytes`. Only `lstat` is used: a sparse
 * 1 GiB file must cost a metadata read, never a read of its content.
 */
export async function oversizedFiles(
  root: string,
  files: readonly string[],
  maxBytes: number,
): Promise<string[]> {
  const oversized: string[] = [];
  for (let start = 0; start < files.length; start += lstatBatch) {
    const batch = files.slice(start, start + lstatBatch);
    const sizes = await Promise.all(batch.map((file) => regularFileSize(path.join(root, file))));
    batch.forEach((file, index) => {
      if ((sizes[index] ?? 0) > maxBytes) oversized.push(file);
    });
  }
  return oversized.sort();
}

async function regularFileSize(file: string): Promise<number> {
  try {
    const stats = await lstat(file);
    return stats.isFile() ? stats.size : 0;
  } catch {
    // Gone since git listed it (a tracked file deleted): nothing to keep out.
    return 0;
  }
}
