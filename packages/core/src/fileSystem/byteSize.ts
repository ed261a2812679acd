const units = ["KB", "MB", "GB", "TB"] as const;

/** A size as people read it: `512 B`, `1.5 KB`, `12.0 MB` (powers of 1024). */
export function formatByteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
