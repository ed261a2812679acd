import { type EditorState, LatheError } from "@lathe/protocol";
import type { FileReadLedger } from "../../tools/fileReadLedger.js";
import type { CodeSearchIndex } from "../../tools/toolServices.js";
import { type AssembledContext, ContextAssembly } from "./contextAssembly.js";
import type { CountTokens } from "./contextText.js";
import { addCursorContext } from "./cursorContextSource.js";
import { type DynamicContextSettings, dynamicContextDefaults } from "./dynamicContextSettings.js";
import { collectLintProblems, type KnownLints, type LintProblem } from "./lintProblems.js";
import { addLinterErrors } from "./lintSource.js";
import { addNotes } from "./notesSource.js";
import { activePath, addOpenFiles } from "./openFilesSource.js";
import { addRecentEdits, type RecentEdit } from "./recentEditsSource.js";
import { addSearchResults } from "./searchResultsSource.js";
import { createSourceContext, normalize, type SourceContext } from "./sourceContext.js";
import { addTerminal } from "./terminalSource.js";

export interface DynamicContextInputs {
  projectRoot: string;
  editor?: EditorState;
  lintProblems?: readonly LintProblem[];
  /** The session's LintBaseline: its problems for the open and recently edited files are added. */
  lintBaseline?: KnownLints;
  /** Used when the editor sends no terminal output: the newest background command's output. */
  terminalTail?: string;
  /** The agent's own edits this session, newest first. */
  recentEdits?: readonly RecentEdit[];
  /** The latest user message, for search results. */
  query?: string;
  codeSearch?: CodeSearchIndex;
  /** What the caller can spare for this block. */
  budgetTokens: number;
  countTokens: CountTokens;
  settings?: Partial<DynamicContextSettings>;
  /** Told about files shown whole from disk, so the model may edit them without reading them again. */
  fileReads?: FileReadLedger;
  signal: AbortSignal;
}

export type DynamicContext = AssembledContext;

/**
 * The dynamic context of one request (SPEC §6, seed 001 D1): open files, the cursor's
 * surroundings, lint problems, terminal output, recent edits and search results, in that order of
 * priority, as one block of tagged sections within `budgetTokens` (the result's `tokens` never
 * exceeds it). Every source is optional; one that fails is left out with a note, never the block.
 */
export async function buildDynamicContext(inputs: DynamicContextInputs): Promise<DynamicContext> {
  const settings = { ...dynamicContextDefaults, ...inputs.settings };
  const assembly = new ContextAssembly(Math.max(0, Math.floor(inputs.budgetTokens)), inputs.countTokens);
  const context = createSourceContext({
    projectRoot: inputs.projectRoot,
    editor: inputs.editor,
    countTokens: inputs.countTokens,
    settings,
    assembly,
    fileReads: inputs.fileReads,
  });
  const step = async (run: (source: SourceContext) => void | Promise<void>) => {
    if (inputs.signal.aborted)
      throw new LatheError("E_CANCELLED", "Building the dynamic context was cancelled.");
    await run(context);
  };

  await step(addOpenFiles);
  await step(addCursorContext);
  await step((source) => addLinterErrors(source, lintProblemsOf(inputs)));
  await step((source) => addTerminal(source, inputs.terminalTail));
  await step((source) => addRecentEdits(source, inputs.recentEdits ?? []));
  await step((source) => addSearchResults(source, inputs.codeSearch, inputs.query, inputs.signal));
  await step(addNotes);
  return assembly.finish();
}

function lintProblemsOf(inputs: DynamicContextInputs): LintProblem[] {
  const openFiles = (inputs.editor?.openFiles ?? []).map((file) => normalize(file.path));
  const edited = (inputs.recentEdits ?? []).map((edit) =>
    normalize(typeof edit === "string" ? edit : edit.path),
  );
  return collectLintProblems({
    editor: inputs.editor,
    problems: inputs.lintProblems,
    baseline: inputs.lintBaseline,
    baselineFiles: [...new Set([...openFiles, ...edited])],
    firstPath: activePath(inputs.editor),
  });
}
