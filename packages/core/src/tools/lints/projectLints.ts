import { tmpdir } from "node:os";
import path from "node:path";
import { sandboxTmp } from "../../policy/sandbox/sandboxArgv.js";
import type { SandboxLaunch } from "../../policy/sandbox/sandboxTypes.js";
import { commandEnvironment } from "../../processes/commandEnvironment.js";
import type { Checker } from "./checker.js";
import { type CheckerLaunch, runCheckerProcess } from "./checkerProcess.js";
import { compareDiagnostics, type Diagnostic } from "./diagnostic.js";
import { eslintChecker } from "./eslintChecker.js";
import { goVetChecker } from "./goVetChecker.js";
import { ruffChecker } from "./ruffChecker.js";
import { typescriptChecker } from "./typescriptChecker.js";

/** Every checker Lathe knows, in the order their results are listed. */
export const defaultCheckers: readonly Checker[] = [
  typescriptChecker,
  eslintChecker,
  ruffChecker,
  goVetChecker,
];

export interface LintScope {
  /** Files to report on, relative to the project root with "/" separators. */
  files?: readonly string[];
  /** Directories to report on ("." for the whole project). Neither set: the whole project. */
  directories?: readonly string[];
}

export interface LintRunOptions extends LintScope, CheckerPlacement {
  signal: AbortSignal;
  /** For the whole run: checkers still running then are killed and reported as timed out. */
  timeoutMs: number;
  checkers?: readonly Checker[];
}

/** Where checkers run: as the call's commands would (see `checkerPlacement`). */
export interface CheckerPlacement {
  /** The call's sandbox; checkers never get the network in it. Absent: unsandboxed. */
  sandbox?: SandboxLaunch;
  /** Secret-looking variables the user lets commands keep (`shell.passEnvironment`). */
  passEnvironment?: readonly string[];
}

export interface LintRun {
  /** Sorted by file and position, limited to the scope. */
  diagnostics: Diagnostic[];
  /** Checkers the project uses (installed, configured). */
  detected: string[];
  /** Checkers that ran to the end; a detected checker with no file in scope does not run. */
  ran: string[];
  failed: Array<{ checker: string; reason: string }>;
  timedOut: string[];
  cancelled: boolean;
  /** What the sandbox undid after a checker (a git redirection it planted), for the model. */
  sandboxNotes: string[];
}

/**
 * Runs the project's own checkers that apply to the scope, at once, each as an argv array in the
 * project root, in the sandbox when one is given and always with the scrubbed environment of
 * commands, and gathers what they report. A checker the project does not use is skipped
 * without a word; one that fails or runs out of time is named in the result.
 */
export async function runProjectLints(projectRoot: string, options: LintRunOptions): Promise<LintRun> {
  const checkers = options.checkers ?? defaultCheckers;
  const executables = await Promise.all(checkers.map((checker) => checker.detect(projectRoot)));
  const run: LintRun = {
    diagnostics: [],
    detected: [],
    ran: [],
    failed: [],
    timedOut: [],
    cancelled: false,
    sandboxNotes: [],
  };
  const jobs: Promise<void>[] = [];
  for (const [index, checker] of checkers.entries()) {
    const executable = executables[index];
    if (executable === undefined) continue;
    run.detected.push(checker.name);
    const targets = targetsFor(checker, options);
    if (targets !== undefined && targets.length === 0) continue;
    jobs.push(runOne(checker, executable, targets, projectRoot, options, run));
  }
  await Promise.all(jobs);
  run.diagnostics = run.diagnostics
    .filter((diagnostic) => inScope(diagnostic.file, options))
    .sort(compareDiagnostics);
  // Listed in the checkers' order, not in the order they happened to finish.
  const order = (name: string) => checkers.findIndex((checker) => checker.name === name);
  run.ran.sort((a, b) => order(a) - order(b));
  return run;
}

async function runOne(
  checker: Checker,
  executable: string,
  targets: readonly string[] | undefined,
  projectRoot: string,
  options: LintRunOptions,
  run: LintRun,
): Promise<void> {
  const tempDir = options.sandbox === undefined ? tmpdir() : sandboxTmp;
  const exit = await runCheckerProcess(
    executable,
    checker.args(targets, projectRoot, tempDir),
    checkerLaunch(checker, projectRoot, tempDir, options),
  );
  if (exit.sandboxNote !== undefined) run.sandboxNotes.push(exit.sandboxNote);
  if (exit.kind === "cancelled") {
    run.cancelled = true;
    return;
  }
  if (exit.kind === "timeout") {
    run.timedOut.push(checker.name);
    return;
  }
  if (exit.kind === "failed") {
    run.failed.push({ checker: checker.name, reason: `could not run: ${exit.message}` });
    return;
  }
  const parsed = checker.parse(exit, projectRoot);
  if (!Array.isArray(parsed)) {
    run.failed.push({ checker: checker.name, reason: parsed.failure });
    return;
  }
  run.ran.push(checker.name);
  run.diagnostics.push(...parsed);
}

function checkerLaunch(
  checker: Checker,
  projectRoot: string,
  tempDir: string,
  options: LintRunOptions,
): CheckerLaunch {
  const environment = commandEnvironment({ passEnvironment: options.passEnvironment });
  const launch: CheckerLaunch = {
    cwd: projectRoot,
    environment,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
  };
  if (options.sandbox === undefined) return launch;
  Object.assign(environment, checker.sandboxEnvironment?.(tempDir));
  // Checking code needs no network; whatever the call was granted, the checker runs without.
  return { ...launch, sandbox: { ...options.sandbox, network: false } };
}

/** The paths to hand a checker: the scope's directories and its files of a kind it checks. */
function targetsFor(checker: Checker, scope: LintScope): string[] | undefined {
  if (scope.files === undefined && scope.directories === undefined) return undefined;
  const files = (scope.files ?? []).filter((file) =>
    checker.extensions.has(path.posix.extname(file).toLowerCase()),
  );
  return [...(scope.directories ?? []), ...files];
}

function inScope(file: string, scope: LintScope): boolean {
  // A broken configuration concerns every file.
  if (file === "" || (scope.files === undefined && scope.directories === undefined)) return true;
  if (scope.files?.includes(file)) return true;
  return (scope.directories ?? []).some(
    (directory) => directory === "." || file === directory || file.startsWith(`${directory}/`),
  );
}
