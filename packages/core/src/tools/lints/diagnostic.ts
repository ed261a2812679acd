/** One problem reported by a project's checker, in a form shared by every checker. */
export interface Diagnostic {
  /** Relative to the project root with "/" separators; "" for a problem with no file (a broken config). */
  file: string;
  /** 1-based; 0 when the checker gave none. */
  line: number;
  /** 1-based; 0 when the checker gave none. */
  column: number;
  severity: DiagnosticSeverity;
  message: string;
  /** The checker: "tsc", "eslint", "ruff", "go vet". */
  source: string;
  /** The checker's rule or error code ("TS2322", "no-unused-vars", "F821"). */
  code?: string;
}

export type DiagnosticSeverity = "error" | "warning" | "info";

/** File, then position, then source: the order diagnostics are shown in. */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  if (a.line !== b.line) return a.line - b.line;
  if (a.column !== b.column) return a.column - b.column;
  return a.source < b.source ? -1 : a.source > b.source ? 1 : 0;
}

/**
 * What identifies a problem across an edit. The position is left out: an edit above a problem
 * moves it without fixing it or causing it.
 */
export function diagnosticIdentity(diagnostic: Diagnostic): string {
  return [
    diagnostic.file,
    diagnostic.source,
    diagnostic.code ?? "",
    diagnostic.severity,
    diagnostic.message,
  ].join("\0");
}
