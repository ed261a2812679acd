import path from "node:path";
import picomatch from "picomatch";

/**
 * The file filter for a `glob` argument, the same for both engines. A glob without "/" matches
 * file names at any depth (`*.ts`, `*.{js,jsx}`); one with "/" matches the path relative to the
 * searched directory or to the project root (`src/*.ts`). A leading
 * "!" excludes instead.
 */
export function globFilter(glob: string, targetRelative: string): (relativePath: string) => boolean {
  const negated = glob.startsWith("!");
  const body = (negated ? glob.slice(1) : glob).replace(/^\//, "");
  const matches = picomatch(body, { dot: true });
  const byName = !body.includes("/");
  const prefix = targetRelative === "." ? "" : `${targetRelative}/`;
  const test = (relativePath: string) => {
    if (byName) return matches(path.posix.basename(relativePath));
    const fromTarget = relativePath.startsWith(prefix) ? relativePath.slice(prefix.length) : relativePath;
    return matches(fromTarget) || matches(relativePath);
  };
  return negated ? (relativePath) => !test(relativePath) : test;
}
