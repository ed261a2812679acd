import { type Checker, failureText, projectRelative } from "./checker.js";
import type { Diagnostic } from "./diagnostic.js";
import { field, numberField, parseJson } from "./jsonFields.js";
import { hasAnyFile, projectExecutable } from "./projectFiles.js";

const configFiles = [
  "eslint.config.js",
  "eslint.config.mjs",
  "eslint.config.cjs",
  "eslint.config.ts",
  "eslint.config.mts",
  "eslint.config.cts",
  ".eslintrc",
  ".eslintrc.js",
  ".eslintrc.cjs",
  ".eslintrc.json",
  ".eslintrc.yaml",
  ".eslintrc.yml",
];

/** The project's own ESLint with its own configuration, reporting as JSON. */
export const eslintChecker: Checker = {
  name: "eslint",
  extensions: new Set([".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".vue", ".svelte"]),
  async detect(projectRoot) {
    if (!(await hasAnyFile(projectRoot, configFiles))) return undefined;
    return projectExecutable(projectRoot, ["node_modules/.bin/eslint"]);
  },
  args(files) {
    return ["--format", "json", ...(files ?? ["."])];
  },
  parse(output, projectRoot) {
    // Status 1 means "problems found"; 2 is a crash or a broken configuration.
    if (output.code !== 0 && output.code !== 1) return { failure: failureText(output) };
    const report = parseJson(output.stdout);
    if (!Array.isArray(report)) return { failure: failureText(output) };
    return report.flatMap((entry) => fileDiagnostics(entry, projectRoot));
  },
};

function fileDiagnostics(entry: unknown, projectRoot: string): Diagnostic[] {
  const filePath = field(entry, "filePath");
  const messages = field(entry, "messages");
  if (typeof filePath !== "string" || !Array.isArray(messages)) return [];
  const file = projectRelative(projectRoot, filePath);
  const diagnostics: Diagnostic[] = [];
  for (const message of messages) {
    const text = field(message, "message");
    // A file passed explicitly but ignored by the configuration is not a problem of the file.
    if (typeof text !== "string" || (field(message, "ruleId") === null && text.startsWith("File ignored")))
      continue;
    const ruleId = field(message, "ruleId");
    const diagnostic: Diagnostic = {
      file,
      line: numberField(message, "line"),
      column: numberField(message, "column"),
      severity: field(message, "severity") === 2 ? "error" : "warning",
      message: text,
      source: "eslint",
    };
    if (typeof ruleId === "string") diagnostic.code = ruleId;
    diagnostics.push(diagnostic);
  }
  return diagnostics;
}
