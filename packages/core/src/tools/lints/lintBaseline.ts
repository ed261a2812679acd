import { projectRelative } from "./checker.js";
import type { Diagnostic } from "./diagnostic.js";
import {
  type AfterEditDiagnostics,
  type AfterEditOptions,
  diagnosticsAfterEdit,
} from "./diagnosticsAfterEdit.js";
import type { LintRun } from "./projectLints.js";

/** Files remembered per session; the least recently checked are forgotten first. */
const maxFiles = 500;

/**
 * The last known problems of each file in a session, so that an edit compares against them and
 * the checkers run once per edit, not before and after it. Fed by every edit check and by
 * read_lints runs.
 */
export class LintBaseline {
  private readonly known = new Map<string, readonly Diagnostic[]>();

  /** Problems last known for `file` (relative to the project root), or undefined. */
  get(file: string): readonly Diagnostic[] | undefined {
    return this.known.get(file);
  }

  record(file: string, diagnostics: readonly Diagnostic[]): void {
    this.known.delete(file);
    this.known.set(file, diagnostics);
    if (this.known.size > maxFiles) {
      const oldest = this.known.keys().next();
      if (!oldest.done) this.known.delete(oldest.value);
    }
  }

  /** Remembers what a complete read_lints run said about each of `files` (no problem included). */
  recordRun(run: LintRun, files: readonly string[]): void {
    if (run.cancelled || run.timedOut.length > 0 || run.failed.length > 0) return;
    for (const file of files)
      this.record(
        file,
        run.diagnostics.filter((diagnostic) => diagnostic.file === file),
      );
  }

  /** Checks `file` after an edit against what was known before, and remembers the result. */
  async afterEdit(
    projectRoot: string,
    file: string,
    signal: AbortSignal,
    options: AfterEditOptions = {},
  ): Promise<AfterEditDiagnostics | undefined> {
    const previous = this.get(projectRelative(projectRoot, file));
    const result = await diagnosticsAfterEdit(projectRoot, file, previous, signal, options);
    if (result !== undefined) this.record(result.file, result.diagnostics);
    return result;
  }
}
