import path from "node:path";
import picomatch from "picomatch";

/**
 * One test for a rule's globs against paths relative to the project root. A pattern without
 * "/" matches a file name at any depth (`*.ts`), as rule authors expect; one with "/" matches
 * the whole path (`src/*.ts`, `src/**`). A leading "./" or "/" means the project root.
 */
export function globMatcher(patterns: readonly string[]): (relativePath: string) => boolean {
  const tests = patterns.map((pattern) => {
    const body = pattern.replace(/^\.?\//, "");
    const matches = picomatch(body, { dot: true });
    return body.includes("/") ? matches : (file: string) => matches(path.posix.basename(file));
  });
  return (relativePath) => tests.some((test) => test(relativePath));
}
