import { readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { basename, dirname } from "node:path";

/**
 * Rotates `file` when it has grown past `maxBytes`: file → file.1, file.1 → file.2 …, keeping at
 * most `keep` old files (older ones, and any left from a larger `keep`, are deleted). Done once
 * when the log is opened, so a running process never has its file moved under it.
 */
export function rotateIfLarge(file: string, maxBytes: number, keep: number): void {
  if (sizeOf(file) <= maxBytes) return;
  const prefix = `${basename(file)}.`;
  const old = readdirSync(dirname(file))
    .filter((name) => name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length)))
    .map((name) => Number(name.slice(prefix.length)))
    .sort((a, b) => b - a);
  // Highest first, so every rename goes to a name that is already free.
  for (const n of old) {
    if (n >= keep) rmSync(`${file}.${n}`, { force: true });
    else renameSync(`${file}.${n}`, `${file}.${n + 1}`);
  }
  if (keep > 0) renameSync(file, `${file}.1`);
  else rmSync(file, { force: true });
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
}
