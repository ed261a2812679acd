/** Columns padded to their widest cell; the columns named are right-aligned (numbers). */
export function table(rows: readonly string[][], rightAligned: readonly number[] = []): string {
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? "").length))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, column) =>
          rightAligned.includes(column)
            ? cell.padStart(widths[column] ?? 0)
            : cell.padEnd(widths[column] ?? 0),
        )
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
