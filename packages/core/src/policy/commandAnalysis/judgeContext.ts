import type { PathContext } from "./pathClasses.js";
import type { StageOutput } from "./stageOutput.js";
import type { StaticWord } from "./staticWords.js";
import type { Verdict } from "./verdict.js";

/** What a command reads on its standard input, as far as the analysis can see. */
export interface StdinSource {
  /** `process`: a process substitution (`sh < <(…)`). */
  from: "terminal" | "pipe" | "heredoc" | "file" | "process";
  /** Data downloaded from the network flows in (`curl … |` earlier in the pipeline). */
  downloads: boolean;
  /** The exact text when it is static: a heredoc, a here-string, `echo …` before the pipe. */
  text?: string;
}

export const terminalStdin: StdinSource = { from: "terminal", downloads: false };

/** Everything a command judge may consult besides the command's own words. */
export interface JudgeContext extends PathContext {
  stdin: StdinSource;
  /** Shell functions defined earlier in the command line (their bodies are judged where defined). */
  functions: ReadonlySet<string>;
  /** xargs appends arguments read from a stdin we cannot see, so targets are unknown. */
  argsFromStdin: boolean;
  /** The static value of a shell variable at this point, or undefined when it is not known. */
  variable(name: string): string | undefined;
  /** The variable was set in this command line from data we cannot see (`read`, `x=$(…)`). */
  runtimeValue(name: string): boolean;
  /** Judges a static shell script (`bash -c '…'`, `eval`, a heredoc fed to `sh`) in full. */
  judgeScript(source: string): Verdict;
  /** Judges another command line's words (a wrapper's inner command, `find -exec …`). */
  judgeArgv(argv: readonly StaticWord[], overrides?: Partial<JudgeContext>): JudgedCommand;
}

export interface JudgedCommand {
  verdict: Verdict;
  output: StageOutput;
}

/** Judges one command by name once wrappers are peeled; `args` excludes the name. */
export type CommandJudge = (args: readonly StaticWord[], ctx: JudgeContext, name: string) => Verdict;
