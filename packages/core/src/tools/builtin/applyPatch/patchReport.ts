import { unifiedDiff } from "../../editEngine/index.js";
import type { FileAction, PlannedFileChange } from "./patchValidator.js";

export interface FileReport {
  path: string;
  action: FileAction;
  /** For a move, the old path. */
  from?: string;
  diff: string;
  added: number;
  removed: number;
}

const actionLetters: Record<FileAction, string> = { add: "A", update: "M", delete: "D", move: "R" };

export function reportChanges(changes: readonly PlannedFileChange[]): FileReport[] {
  return changes.map((change) => {
    const diff = unifiedDiff(change.path, change.before, change.after);
    const report: FileReport = { path: change.path, action: change.action, diff, ...countChangedLines(diff) };
    if (change.from !== undefined) report.from = change.from;
    return report;
  });
}

/**
 * One line per file (`M src/app.ts (+3 -1)`), then the diffs of changed and moved files. Added and
 * deleted files get no diff here: the model wrote the one and does not need the other back.
 */
export function formatReport(reports: readonly FileReport[]): string {
  const count = reports.length === 1 ? "1 file" : `${reports.length} files`;
  const summary = reports.map((report) => {
    const name = report.from === undefined ? report.path : `${report.from} -> ${report.path}`;
    return `${actionLetters[report.action]} ${name} (+${report.added} -${report.removed})`;
  });
  const diffs = reports
    .filter((report) => report.action === "update" || report.action === "move")
    .map((report) => report.diff.trimEnd())
    .filter((diff) => diff.includes("\n@@"));
  return [`Applied the patch to ${count}:`, ...summary, ...(diffs.length > 0 ? ["", ...diffs] : [])].join(
    "\n",
  );
}

/** Counts from the hunks only: before the first `@@` are the `---`/`+++` headers. */
function countChangedLines(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  let inHunks = false;
  for (const line of diff.split("\n")) {
    if (line.startsWith("@@")) inHunks = true;
    else if (inHunks && line.startsWith("+")) added++;
    else if (inHunks && line.startsWith("-")) removed++;
  }
  return { added, removed };
}
