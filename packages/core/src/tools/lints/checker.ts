import path from "node:path";
import type { Diagnostic } from "./diagnostic.js";

export interface CheckerOutput {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** One kind of checker a project may use, and how to run it and read what it says. */
export interface Checker {
  name: string;
  /** Extensions of the files it checks, lower case with the dot. */
  extensions: ReadonlySet<string>;
  /** The executable when the project uses this checker and it is installed, else undefined. */
  detect(projectRoot: string): Promise<string | undefined>;
  /**
   * Arguments for checking `files` (relative to the project root), or the whole project when
   * undefined. A checker that can only check its whole project ignores `files`; its results are
   * filtered afterwards. `tempDir` is where it may keep state between runs: the sandbox's private
   * `/tmp` when it runs sandboxed, the host's temp dir otherwise.
   */
  args(files: readonly string[] | undefined, projectRoot: string, tempDir: string): string[];
  /** Variables it needs inside the sandbox, where the home directory (and its caches) is read-only. */
  sandboxEnvironment?(tempDir: string): Record<string, string>;
  /** The problems found, or a message when the checker itself failed. */
  parse(output: CheckerOutput, projectRoot: string): Diagnostic[] | { failure: string };
}

/** A path as a checker printed it (absolute, or relative to the project root) made project-relative. */
export function projectRelative(projectRoot: string, reported: string): string {
  const relative = path.relative(projectRoot, path.resolve(projectRoot, reported));
  return path.sep === "/" ? relative : relative.split(path.sep).join("/");
}

/** The first lines of a checker's own error, for the model to see why it failed. */
export function failureText(output: CheckerOutput): string {
  const text = (output.stderr.trim() || output.stdout.trim()).split("\n").slice(0, 5).join("\n");
  return text === "" ? `it exited with status ${output.code}` : text;
}
