import { executableOnPath } from "../../fileSystem/executableOnPath.js";
import { type Checker, failureText, projectRelative } from "./checker.js";
import type { Diagnostic } from "./diagnostic.js";
import { field, numberField, parseJson } from "./jsonFields.js";
import { hasAnyFile, projectExecutable } from "./projectFiles.js";

const pythonProjectFiles = [
  "pyproject.toml",
  "ruff.toml",
  ".ruff.toml",
  "setup.py",
  "setup.cfg",
  "requirements.txt",
];

/**
 * ruff, from the project's virtual environment or PATH, in a Python project. `--exit-zero` makes
 * any other status a failure of ruff itself; `--no-cache` keeps it from writing into the project.
 */
export const ruffChecker: Checker = {
  name: "ruff",
  extensions: new Set([".py", ".pyi"]),
  async detect(projectRoot) {
    if (!(await hasAnyFile(projectRoot, pythonProjectFiles))) return undefined;
    return (
      (await projectExecutable(projectRoot, [".venv/bin/ruff", "venv/bin/ruff"])) ?? executableOnPath("ruff")
    );
  },
  args(files) {
    return ["check", "--output-format", "json", "--exit-zero", "--no-cache", ...(files ?? ["."])];
  },
  parse(output, projectRoot) {
    if (output.code !== 0) return { failure: failureText(output) };
    const report = parseJson(output.stdout);
    if (!Array.isArray(report)) return { failure: failureText(output) };
    return report.flatMap((entry) => ruffDiagnostic(entry, projectRoot));
  },
};

function ruffDiagnostic(entry: unknown, projectRoot: string): Diagnostic[] {
  const filename = field(entry, "filename");
  const message = field(entry, "message");
  if (typeof filename !== "string" || typeof message !== "string") return [];
  const location = field(entry, "location");
  const code = field(entry, "code");
  const diagnostic: Diagnostic = {
    file: projectRelative(projectRoot, filename),
    line: numberField(location, "row"),
    column: numberField(location, "column"),
    severity: ruffSeverity(typeof code === "string" ? code : undefined),
    message,
    source: "ruff",
  };
  if (typeof code === "string") diagnostic.code = code;
  return [diagnostic];
}

/**
 * ruff has no severities. Syntax errors (no code), pyflakes' F rules (undefined names, bad
 * imports) and E9 (runtime errors) break the program; the rest is style.
 */
function ruffSeverity(code: string | undefined): "error" | "warning" {
  if (code === undefined || code.startsWith("F") || code.startsWith("E9")) return "error";
  return "warning";
}
