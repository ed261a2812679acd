/** How a table column's cells sit in their width, from the colons of its delimiter row. */
export type ColumnAlign = "left" | "center" | "right";

/** A pipe table's text: its header, the alignment of each column, then its rows, each padded to the header's width. */
export interface TableText {
  header: string[];
  align: ColumnAlign[];
  rows: string[][];
  /** Lines the table takes from `at` on. */
  length: number;
}

const delimiterCell = /^\s*:?-+:?\s*$/;

/**
 * The pipe table starting at line `at` (a header row, a delimiter row such as `|---|:--:|`,
 * then rows up to a blank line or one without a pipe), or undefined. The header and the
 * delimiter must have as many cells, so a delimiter row still streaming in is not a table yet.
 */
export function tableAt(lines: readonly string[], at: number): TableText | undefined {
  const headerLine = lines[at];
  const delimiterLine = lines[at + 1];
  if (headerLine === undefined || delimiterLine === undefined || !headerLine.includes("|")) return undefined;
  const header = cells(headerLine);
  const delimiter = cells(delimiterLine);
  if (!delimiterLine.includes("-") || !delimiter.every((cell) => delimiterCell.test(cell))) return undefined;
  if (header.length !== delimiter.length) return undefined;
  const rows: string[][] = [];
  let next = at + 2;
  for (; next < lines.length; next++) {
    const line = lines[next] ?? "";
    if (line.trim() === "" || !line.includes("|")) break;
    const row = cells(line).slice(0, header.length);
    rows.push([...row, ...Array<string>(header.length - row.length).fill("")]);
  }
  return { header, align: delimiter.map(alignOf), rows, length: next - at };
}

/** A row's cells: split at pipes not escaped, without the outer pipes, trimmed. */
function cells(line: string): string[] {
  const inner = line
    .trim()
    .replace(/^\|/, "")
    .replace(/(?<!\\)\|$/, "");
  return inner.split(/(?<!\\)\|/).map((cell) => cell.trim().replaceAll("\\|", "|"));
}

function alignOf(cell: string): ColumnAlign {
  const trimmed = cell.trim();
  if (trimmed.startsWith(":") && trimmed.endsWith(":")) return "center";
  if (trimmed.endsWith(":")) return "right";
  return "left";
}
