import { createHash } from "node:crypto";
import path from "node:path";
import { type Checker, failureText, projectRelative } from "./checker.js";
import type { Diagnostic, DiagnosticSeverity } from "./diagnostic.js";
import { hasAnyFile, projectExecutable } from "./projectFiles.js";

/** `src/a.ts(12,5): error TS2322: Type 'string' is not assignable…` */
const diagnosticLine = /^(.+?)\((\d+),(\d+)\): (error|warning|message) (TS\d+): (.*)$/;
/** `error TS5083: Cannot read file…`: a problem with the configuration, not with a file. */
const globalLine = /^(error|warning|message) (TS\d+): (.*)$/;

/**
 * The project's own TypeScript (`node_modules/.bin/tsc` beside a tsconfig.json), type-checking
 * the whole project without emitting. Its incremental state is kept in the temp directory (the
 * sandbox's own when sandboxed), not in the project, so checks after an edit take about a second instead of a full build.
 */
export const typescriptChecker: Checker = {
  name: "tsc",
  extensions: new Set([".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"]),
  async detect(projectRoot) {
    if (!(await hasAnyFile(projectRoot, ["tsconfig.json"]))) return undefined;
    return projectExecutable(projectRoot, ["node_modules/.bin/tsc"]);
  },
  args(_files, projectRoot, tempDir) {
    return [
      "--noEmit",
      "--pretty",
      "false",
      "-p",
      ".",
      "--incremental",
      "--tsBuildInfoFile",
      buildInfoPath(projectRoot, tempDir),
    ];
  },
  parse(output, projectRoot) {
    const diagnostics = parseTscOutput(output.stdout, projectRoot);
    // Status 1 and 2 mean "problems found"; anything else with nothing parsed is tsc failing.
    if (diagnostics.length === 0 && output.code !== 0) return { failure: failureText(output) };
    return diagnostics;
  },
};

export function parseTscOutput(stdout: string, projectRoot: string): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const line of stdout.split(/\r?\n/)) {
    const located = diagnosticLine.exec(line);
    if (located !== null) {
      diagnostics.push({
        file: projectRelative(projectRoot, located[1] ?? ""),
        line: Number(located[2]),
        column: Number(located[3]),
        severity: severityOf(located[4]),
        message: located[6] ?? "",
        source: "tsc",
        code: located[5] ?? "",
      });
      continue;
    }
    const global = globalLine.exec(line);
    if (global !== null) {
      diagnostics.push({
        file: "",
        line: 0,
        column: 0,
        severity: severityOf(global[1]),
        message: global[3] ?? "",
        source: "tsc",
        code: global[2] ?? "",
      });
      continue;
    }
    // tsc continues a message (the chain of "Type X is not assignable…") on indented lines.
    const last = diagnostics.at(-1);
    if (last !== undefined && /^\s+\S/.test(line)) last.message += `\n${line.trimEnd()}`;
  }
  return diagnostics;
}

function severityOf(word: string | undefined): DiagnosticSeverity {
  if (word === "error") return "error";
  return word === "warning" ? "warning" : "info";
}

function buildInfoPath(projectRoot: string, tempDir: string): string {
  const key = createHash("sha256").update(projectRoot).digest("hex").slice(0, 16);
  return path.join(tempDir, "lathe-lints", `tsc-${key}.tsbuildinfo`);
}
