import type { Diagnostic } from "./diagnostic.js";
import type { LintRun } from "./projectLints.js";

/** Diagnostics shown per file; the rest are counted. */
export const maxDiagnosticsPerFile = 20;

/** Where a checker looks, for the message when a project uses none of them. */
const checkersLookedFor =
  "TypeScript (tsconfig.json and node_modules/.bin/tsc), ESLint (node_modules/.bin/eslint and a config), " +
  "ruff (a Python project with ruff installed) and go vet (go.mod and go on PATH)";

/**
 * The result of read_lints: which checkers ran, then the problems grouped by file, one line
 * each, `line:column severity code: message (checker)`, at most 20 per file.
 */
export function formatLintRun(run: LintRun, timeoutMs: number): string {
  if (run.detected.length === 0)
    return `No checkers found for this project. Looked for ${checkersLookedFor}.`;
  const lines = [summary(run)];
  for (const failure of run.failed) lines.push(`${failure.checker} failed: ${failure.reason}`);
  for (const name of run.timedOut)
    lines.push(`${name} did not finish within ${Math.round(timeoutMs / 1000)} s.`);
  if (run.cancelled) lines.push("Cancelled: the results are incomplete.");
  lines.push(...run.sandboxNotes);
  for (const [file, diagnostics] of groupByFile(run.diagnostics)) {
    lines.push("", file === "" ? "(project configuration)" : file);
    for (const diagnostic of diagnostics.slice(0, maxDiagnosticsPerFile))
      lines.push(`  ${formatDiagnostic(diagnostic)}`);
    if (diagnostics.length > maxDiagnosticsPerFile) {
      lines.push(`  … ${diagnostics.length - maxDiagnosticsPerFile} more in this file`);
    }
  }
  return lines.join("\n");
}

/** `12:5 error TS2322: Type 'string' is not assignable to type 'number'. (tsc)` */
export function formatDiagnostic(diagnostic: Diagnostic): string {
  const position = diagnostic.line > 0 ? `${diagnostic.line}:${diagnostic.column} ` : "";
  const code = diagnostic.code === undefined ? "" : ` ${diagnostic.code}`;
  const message = diagnostic.message.replace(/\n/g, "\n    ");
  return `${position}${diagnostic.severity}${code}: ${message} (${diagnostic.source})`;
}

function summary(run: LintRun): string {
  if (run.ran.length === 0 && run.failed.length === 0 && run.timedOut.length === 0 && !run.cancelled) {
    return `None of the project's checkers (${run.detected.join(", ")}) checks these files.`;
  }
  if (run.ran.length === 0) return "No checker completed.";
  const checked = `Checked with ${run.ran.join(", ")}`;
  if (run.diagnostics.length === 0) return `${checked}: no problems found.`;
  const errors = run.diagnostics.filter((diagnostic) => diagnostic.severity === "error").length;
  const others = run.diagnostics.length - errors;
  const files = new Set(run.diagnostics.map((diagnostic) => diagnostic.file)).size;
  const parts = [count(errors, "error"), ...(others > 0 ? [count(others, "warning")] : [])];
  return `${checked}: ${parts.join(", ")} in ${count(files, "file")}.`;
}

function groupByFile(diagnostics: readonly Diagnostic[]): Map<string, Diagnostic[]> {
  const groups = new Map<string, Diagnostic[]>();
  for (const diagnostic of diagnostics) {
    const group = groups.get(diagnostic.file);
    if (group === undefined) groups.set(diagnostic.file, [diagnostic]);
    else group.push(diagnostic);
  }
  return groups;
}

export function count(value: number, noun: string): string {
  return `${value} ${noun}${value === 1 ? "" : "s"}`;
}
