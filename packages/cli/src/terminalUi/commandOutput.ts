/** Lines of a command's output kept in view. */
export const outputTailLines = 5;

/** The last lines of a command's output. */
export function outputTail(output: string, lines = outputTailLines): string {
  const all = output.replace(/\s+$/, "").split("\n");
  return all.slice(-lines).join("\n");
}

/**
 * What a command printed, from the report its call gives the model (`Exit code: 1`, then
 * `--- stdout ---` and `--- stderr ---` sections, or `(no output)`): the report's own lines
 * are left out, since the card says the exit code itself.
 */
export function commandOutput(report: string): string {
  const lines = report.split("\n");
  const body = /^Exit code: -?\d+$/.test(lines[0] ?? "") ? lines.slice(1) : lines;
  return body
    .filter((line) => line !== "--- stdout ---" && line !== "--- stderr ---" && line !== "(no output)")
    .join("\n");
}
