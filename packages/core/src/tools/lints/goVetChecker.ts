import path from "node:path";
import { executableOnPath } from "../../fileSystem/executableOnPath.js";
import { type Checker, failureText, projectRelative } from "./checker.js";
import type { Diagnostic } from "./diagnostic.js";
import { hasAnyFile } from "./projectFiles.js";

/** `./pkg/file.go:12:2: message`, sometimes prefixed with `vet: `. */
const vetLine = /^(?:vet: )?(.+?\.go):(\d+):(\d+): (.*)$/;

/** `go vet` in a Go module: on the packages of the given files, under given directories, or all. */
export const goVetChecker: Checker = {
  name: "go vet",
  extensions: new Set([".go"]),
  async detect(projectRoot) {
    if (!(await hasAnyFile(projectRoot, ["go.mod"]))) return undefined;
    return executableOnPath("go");
  },
  args(targets) {
    if (targets === undefined) return ["vet", "./..."];
    const packages = new Set(
      targets.map((target) =>
        target.endsWith(".go") ? `./${path.posix.dirname(target)}` : `./${target}/...`,
      ),
    );
    return ["vet", ...[...packages].map((pattern) => pattern.replace(/^\.\/\.(?=\/|$)/, "."))];
  },
  // go refuses to build without a writable build cache, and the one under the home is read-only.
  sandboxEnvironment(tempDir) {
    return { GOCACHE: path.join(tempDir, "go-build") };
  },
  parse(output, projectRoot) {
    const diagnostics = parseGoVetOutput(output.stderr, projectRoot);
    if (diagnostics.length === 0 && output.code !== 0) return { failure: failureText(output) };
    return diagnostics;
  },
};

export function parseGoVetOutput(stderr: string, projectRoot: string): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const line of stderr.split(/\r?\n/)) {
    const found = vetLine.exec(line);
    if (found === null) continue;
    diagnostics.push({
      file: projectRelative(projectRoot, found[1] ?? ""),
      line: Number(found[2]),
      column: Number(found[3]),
      severity: "error",
      message: found[4] ?? "",
      source: "go vet",
    });
  }
  return diagnostics;
}
