import type { Risk } from "@lathe/protocol";
import type { Assessment } from "../policyTypes.js";

/** One simple command (or a lone redirect, or a function definition) of a shell command line. */
export interface CommandSegment {
  /** The segment's source text. */
  text: string;
  /** Its words after quote removal and static expansion; unresolved parts keep their source text. */
  argv: string[];
  risk: Risk;
  reason: string;
}

/** The assessment of a whole command line: the most severe of its segments. */
export type CommandAnalysis = Assessment & {
  /** Every segment only reads and prints (and the line parsed): nothing is written or started. */
  readOnly: boolean;
  segments: CommandSegment[];
};

export interface AnalyzeOptions {
  /**
   * Absolute path of the project root, where the command runs. With it, relative and absolute
   * targets of destructive commands are placed exactly (inside the project, an ancestor of it,
   * elsewhere); without it, a relative path is taken as inside the project unless its leading
   * `..` components leave it.
   */
  projectRoot?: string;
  /** Absolute path of the user's home directory, so `/home/me` is recognised as `~`. */
  homeDir?: string;
  /** `$LATHE_HOME`: files there (credentials, settings) are sensitive, and `$LATHE_HOME` is known. */
  latheHome?: string;
}
