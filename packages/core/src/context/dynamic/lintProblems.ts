import type { EditorState } from "@lathe/protocol";
import type { Diagnostic } from "../../tools/lints/diagnostic.js";

/** A problem a checker or the editor reports, in one shape for both. */
export interface LintProblem {
  /** Relative to the project root; "" for a problem with no file. */
  path: string;
  /** 1-based; 0 when unknown. */
  line: number;
  column?: number;
  severity: string;
  message: string;
  source?: string;
  /** The checker's rule or error code. */
  code?: string;
}

/** What the dynamic context needs of the session's `LintBaseline`. */
export interface KnownLints {
  get(file: string): readonly Diagnostic[] | undefined;
}

const severityRank: Record<string, number> = { error: 0, warning: 1 };

/**
 * Every known problem once, errors first, those of `firstPath` (the active file) before the rest
 * of the same severity. The editor's own diagnostics, the caller's, and the session's baseline for
 * `baselineFiles` are merged: one problem reported by two of them is shown once.
 */
export function collectLintProblems(options: {
  editor?: EditorState | undefined;
  problems?: readonly LintProblem[] | undefined;
  baseline?: KnownLints | undefined;
  baselineFiles?: readonly string[];
  firstPath?: string | undefined;
}): LintProblem[] {
  const all: LintProblem[] = [
    ...(options.editor?.diagnostics ?? []),
    ...(options.problems ?? []),
    ...(options.baselineFiles ?? []).flatMap((file) =>
      (options.baseline?.get(file) ?? []).map(fromDiagnostic),
    ),
  ];
  const unique = new Map<string, LintProblem>();
  for (const problem of all) {
    const key = [problem.path, problem.line, problem.message.trim()].join("\0");
    if (!unique.has(key)) unique.set(key, problem);
  }
  const rank = (problem: LintProblem) => severityRank[problem.severity] ?? 2;
  return [...unique.values()].sort(
    (a, b) =>
      rank(a) - rank(b) ||
      Number(b.path === options.firstPath) - Number(a.path === options.firstPath) ||
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) ||
      a.line - b.line ||
      (a.column ?? 0) - (b.column ?? 0),
  );
}

/** `src/a.ts:12:5: error TS2322: Type 'string' is not assignable… (tsc)`, one problem a line. */
export function formatLintProblem(problem: LintProblem): string {
  const file = problem.path === "" ? "(project)" : problem.path;
  const position =
    problem.line > 0
      ? `:${problem.line}${problem.column !== undefined && problem.column > 0 ? `:${problem.column}` : ""}`
      : "";
  const code = problem.code === undefined ? "" : ` ${problem.code}`;
  const source = problem.source === undefined ? "" : ` (${problem.source})`;
  const message = problem.message.trim().replace(/\n/g, "\n    ");
  return `${file}${position}: ${problem.severity}${code}: ${message}${source}`;
}

/** The first `shown` problems, then how many more there are. */
export function formatLintProblems(problems: readonly LintProblem[], shown: number): string {
  const lines = problems.slice(0, shown).map(formatLintProblem);
  const more = problems.length - Math.min(shown, problems.length);
  if (more > 0) lines.push(`… ${more} more ${more === 1 ? "problem" : "problems"} not shown.`);
  return lines.join("\n");
}

function fromDiagnostic(diagnostic: Diagnostic): LintProblem {
  const problem: LintProblem = {
    path: diagnostic.file,
    line: diagnostic.line,
    severity: diagnostic.severity,
    message: diagnostic.message,
    source: diagnostic.source,
  };
  if (diagnostic.column > 0) problem.column = diagnostic.column;
  if (diagnostic.code !== undefined) problem.code = diagnostic.code;
  return problem;
}
