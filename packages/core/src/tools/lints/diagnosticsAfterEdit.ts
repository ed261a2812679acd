import { type Checker, projectRelative } from "./checker.js";
import { type Diagnostic, diagnosticIdentity } from "./diagnostic.js";
import { count, formatDiagnostic, maxDiagnosticsPerFile } from "./formatDiagnostics.js";
import { type CheckerPlacement, runProjectLints } from "./projectLints.js";

/** After this long the check gives up silently: an edit must not wait on a slow type-check. */
export const defaultAfterEditTimeoutMs = 15_000;

export interface AfterEditOptions extends CheckerPlacement {
  timeoutMs?: number;
  checkers?: readonly Checker[];
}

export interface AfterEditDiagnostics {
  /** The edited file, relative to the project root. */
  file: string;
  /** Every problem the checkers report in the file now. */
  diagnostics: Diagnostic[];
  /**
   * The problems that were not there before the edit, or undefined when nothing was known of the
   * file before (its problems may predate the edit).
   */
  introduced: Diagnostic[] | undefined;
  /** The checkers that ran; empty when none applies to this kind of file. */
  ran: string[];
  /** What the sandbox undid after a checker, for the model; absent when nothing. */
  sandboxNotes?: string[];
}

/**
 * The problems of `file` after an edit, and which of them are new compared with `previous` (the
 * file's problems before, e.g. from `LintBaseline`). Only checkers for that kind of file run.
 * Undefined when the checkers could not answer in time, failed or were cancelled: the edit
 * result then simply says nothing about problems.
 */
export async function diagnosticsAfterEdit(
  projectRoot: string,
  file: string,
  previous: readonly Diagnostic[] | undefined,
  signal: AbortSignal,
  options: AfterEditOptions = {},
): Promise<AfterEditDiagnostics | undefined> {
  const relative = projectRelative(projectRoot, file);
  const run = await runProjectLints(projectRoot, {
    files: [relative],
    signal,
    timeoutMs: options.timeoutMs ?? defaultAfterEditTimeoutMs,
    sandbox: options.sandbox,
    passEnvironment: options.passEnvironment,
    checkers: options.checkers,
  });
  if (run.cancelled || run.timedOut.length > 0 || run.failed.length > 0) return undefined;
  const diagnostics = run.diagnostics.filter((diagnostic) => diagnostic.file === relative);
  const result: AfterEditDiagnostics = {
    file: relative,
    diagnostics,
    introduced: previous === undefined ? undefined : newDiagnostics(diagnostics, previous),
    ran: run.ran,
  };
  if (run.sandboxNotes.length > 0) result.sandboxNotes = run.sandboxNotes;
  return result;
}

/**
 * The diagnostics of `now` with no match in `before`. Matching ignores positions (an edit moves
 * the problems below it) and counts duplicates, so a second identical error is still new.
 */
export function newDiagnostics(now: readonly Diagnostic[], before: readonly Diagnostic[]): Diagnostic[] {
  const remaining = new Map<string, number>();
  for (const diagnostic of before) {
    const identity = diagnosticIdentity(diagnostic);
    remaining.set(identity, (remaining.get(identity) ?? 0) + 1);
  }
  return now.filter((diagnostic) => {
    const identity = diagnosticIdentity(diagnostic);
    const left = remaining.get(identity) ?? 0;
    if (left === 0) return true;
    remaining.set(identity, left - 1);
    return false;
  });
}

/**
 * The note an edit result ends with when the file has errors: the new ones when the state before
 * is known, otherwise all of them, said as such. Empty when there is nothing to say.
 */
export function formatAfterEdit(result: AfterEditDiagnostics | undefined): string {
  if (result === undefined) return "";
  const notes = result.sandboxNotes ?? [];
  const errors = (result.introduced ?? result.diagnostics).filter(
    (diagnostic) => diagnostic.severity === "error",
  );
  if (errors.length === 0) return notes.join("\n");
  const heading =
    result.introduced === undefined
      ? `${result.file} now has ${count(errors.length, "error")}:`
      : `This edit introduced ${count(errors.length, "new error")} in ${result.file}:`;
  const shown = errors
    .slice(0, maxDiagnosticsPerFile)
    .map((diagnostic) => `  ${formatDiagnostic(diagnostic)}`);
  const more =
    errors.length > maxDiagnosticsPerFile ? [`  … ${errors.length - maxDiagnosticsPerFile} more`] : [];
  return [heading, ...shown, ...more, ...notes].join("\n");
}
