import type { DiffLine, FileDiff } from "./diffLines.js";

/** A row of a diff as shown: a file's name (when there are several, or a note), a skip between hunks, a line. */
export type DiffRow =
  | { kind: "file"; path: string; note?: string }
  | { kind: "gap" }
  | { kind: "line"; line: DiffLine; path: string };

/** The rows of a diff that fit, the lines left out, and how wide the line numbers shown are. */
export interface ShownDiff {
  rows: DiffRow[];
  hidden: number;
  numberWidth: number;
}

export const diffSigns: Record<DiffLine["kind"], string> = { add: "+", del: "-", context: " " };

/** The first `maxRows` rows of a diff; the lines past them are counted, not shown. */
export function shownDiff(files: readonly FileDiff[], maxRows: number): ShownDiff {
  const rows: DiffRow[] = [];
  for (const file of files) {
    if (files.length > 1 || file.note !== undefined)
      rows.push({ kind: "file", path: file.path, note: file.note });
    file.hunks.forEach((hunk, index) => {
      if (index > 0) rows.push({ kind: "gap" });
      for (const line of hunk) rows.push({ kind: "line", line, path: file.path });
    });
  }
  const shown = rows.slice(0, maxRows);
  const hidden = rows.slice(maxRows).filter((row) => row.kind === "line").length;
  const numbers = shown.flatMap((row) =>
    row.kind === "line" && row.line.number !== undefined ? [row.line.number] : [],
  );
  const numberWidth = numbers.length === 0 ? 0 : String(Math.max(...numbers)).length;
  return { rows: shown, hidden, numberWidth };
}

/** What a row's line number takes: the number right-aligned and a space, or nothing when no row has one. */
export function numberColumn(number: number | undefined, width: number): string {
  return width === 0 ? "" : `${String(number ?? "").padStart(width)} `;
}

/** A diff as plain text, one row a line: `12 - old`, `12 + new`, `⋮` between hunks, `… 3 more lines` at the end. */
export function diffText(files: readonly FileDiff[], maxRows: number): string {
  const { rows, hidden, numberWidth } = shownDiff(files, maxRows);
  const lines = rows.map((row) => {
    if (row.kind === "file") return row.note === undefined ? row.path : `${row.path} (${row.note})`;
    if (row.kind === "gap") return `${numberColumn(undefined, numberWidth)}⋮`;
    return `${numberColumn(row.line.number, numberWidth)}${diffSigns[row.line.kind]} ${row.line.text}`;
  });
  if (hidden > 0) lines.push(`… ${hidden} more line${hidden === 1 ? "" : "s"}`);
  return lines.join("\n");
}
