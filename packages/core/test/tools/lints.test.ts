import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Checker } from "../../src/tools/lints/checker.js";
import type { Diagnostic } from "../../src/tools/lints/diagnostic.js";
import {
  diagnosticsAfterEdit,
  formatAfterEdit,
  newDiagnostics,
} from "../../src/tools/lints/diagnosticsAfterEdit.js";
import { eslintChecker } from "../../src/tools/lints/eslintChecker.js";
import { goVetChecker, parseGoVetOutput } from "../../src/tools/lints/goVetChecker.js";
import { LintBaseline } from "../../src/tools/lints/lintBaseline.js";
import { runProjectLints } from "../../src/tools/lints/projectLints.js";
import { ruffChecker } from "../../src/tools/lints/ruffChecker.js";
import { parseTscOutput, typescriptChecker } from "../../src/tools/lints/typescriptChecker.js";
import { createToolTestBed, type ToolTestBed } from "./toolTestContext.js";

const root = "/project";

let bed: ToolTestBed;
beforeEach(() => {
  bed = createToolTestBed();
});
afterEach(() => bed.cleanup());

const never = new AbortController().signal;

function diagnostic(overrides: Partial<Diagnostic>): Diagnostic {
  return { file: "a.ts", line: 1, column: 1, severity: "error", message: "m", source: "tsc", ...overrides };
}

describe("checker output parsing", () => {
  it("reads tsc's lines, its continued messages and its configuration errors", () => {
    const stdout = [
      "src/a.ts(3,7): error TS2322: Type '{ a: string; }' is not assignable to type 'Target'.",
      "  Types of property 'a' are incompatible.",
      "    Type 'string' is not assignable to type 'number'.",
      "src/b.ts(10,1): warning TS6133: 'x' is declared but its value is never read.",
      "error TS5083: Cannot read file '/project/tsconfig.base.json'.",
      "",
    ].join("\n");
    expect(parseTscOutput(stdout, root)).toEqual([
      {
        file: "src/a.ts",
        line: 3,
        column: 7,
        severity: "error",
        message:
          "Type '{ a: string; }' is not assignable to type 'Target'.\n  Types of property 'a' are incompatible.\n" +
          "    Type 'string' is not assignable to type 'number'.",
        source: "tsc",
        code: "TS2322",
      },
      {
        file: "src/b.ts",
        line: 10,
        column: 1,
        severity: "warning",
        message: "'x' is declared but its value is never read.",
        source: "tsc",
        code: "TS6133",
      },
      {
        file: "",
        line: 0,
        column: 0,
        severity: "error",
        message: "Cannot read file '/project/tsconfig.base.json'.",
        source: "tsc",
        code: "TS5083",
      },
    ]);
  });

  it("reads ESLint's JSON report and tells its crashes apart", () => {
    const report = [
      {
        filePath: "/project/src/a.js",
        messages: [
          {
            ruleId: "no-unused-vars",
            severity: 2,
            message: "'x' is assigned a value but never used.",
            line: 1,
            column: 7,
          },
          { ruleId: "semi", severity: 1, message: "Missing semicolon.", line: 2, column: 10 },
          {
            ruleId: null,
            severity: 2,
            message: "Parsing error: Unexpected token )",
            line: 5,
            column: 3,
            fatal: true,
          },
        ],
      },
      {
        filePath: "/project/dist/x.js",
        messages: [
          { ruleId: null, severity: 1, message: "File ignored because of a matching ignore pattern." },
        ],
      },
    ];
    expect(eslintChecker.parse({ code: 1, stdout: JSON.stringify(report), stderr: "" }, root)).toEqual([
      {
        file: "src/a.js",
        line: 1,
        column: 7,
        severity: "error",
        message: "'x' is assigned a value but never used.",
        source: "eslint",
        code: "no-unused-vars",
      },
      {
        file: "src/a.js",
        line: 2,
        column: 10,
        severity: "warning",
        message: "Missing semicolon.",
        source: "eslint",
        code: "semi",
      },
      {
        file: "src/a.js",
        line: 5,
        column: 3,
        severity: "error",
        message: "Parsing error: Unexpected token )",
        source: "eslint",
      },
    ]);
    expect(
      eslintChecker.parse({ code: 2, stdout: "", stderr: "Oops! Something went wrong!\nConfig error" }, root),
    ).toEqual({ failure: "Oops! Something went wrong!\nConfig error" });
  });

  it("reads ruff's JSON report, with errors and style warnings apart", () => {
    const report = [
      {
        code: "F821",
        message: "Undefined name `foo`",
        filename: "/project/app/main.py",
        location: { row: 4, column: 5 },
      },
      {
        code: "E501",
        message: "Line too long (120 > 88)",
        filename: "/project/app/main.py",
        location: { row: 9, column: 89 },
      },
      {
        code: null,
        message: "SyntaxError: Expected an expression",
        filename: "/project/bad.py",
        location: { row: 1, column: 4 },
      },
    ];
    expect(ruffChecker.parse({ code: 0, stdout: JSON.stringify(report), stderr: "" }, root)).toEqual([
      {
        file: "app/main.py",
        line: 4,
        column: 5,
        severity: "error",
        message: "Undefined name `foo`",
        source: "ruff",
        code: "F821",
      },
      {
        file: "app/main.py",
        line: 9,
        column: 89,
        severity: "warning",
        message: "Line too long (120 > 88)",
        source: "ruff",
        code: "E501",
      },
      {
        file: "bad.py",
        line: 1,
        column: 4,
        severity: "error",
        message: "SyntaxError: Expected an expression",
        source: "ruff",
      },
    ]);
  });

  it("reads go vet's report and runs it on the packages in scope", () => {
    const stderr = [
      "# example.com/app/server",
      "vet: server/handler.go:12:2: unreachable code",
      "./main.go:7:13: fmt.Printf format %d has arg s of wrong type string",
    ].join("\n");
    expect(parseGoVetOutput(stderr, root)).toEqual([
      {
        file: "server/handler.go",
        line: 12,
        column: 2,
        severity: "error",
        message: "unreachable code",
        source: "go vet",
      },
      {
        file: "main.go",
        line: 7,
        column: 13,
        severity: "error",
        message: "fmt.Printf format %d has arg s of wrong type string",
        source: "go vet",
      },
    ]);
    expect(goVetChecker.args(undefined, root, "/tmp")).toEqual(["vet", "./..."]);
    expect(goVetChecker.args(["main.go", "server/a.go", "server/b.go", "lib"], root, "/tmp")).toEqual([
      "vet",
      ".",
      "./server",
      "./lib/...",
    ]);
  });
});

describe("runProjectLints", () => {
  /** A checker backed by a shell command, standing in for a tool that misbehaves. */
  function shellChecker(name: string, script: string): Checker {
    return {
      name,
      extensions: new Set([".txt"]),
      detect: async () => "/bin/sh",
      args: () => ["-c", script],
      parse: (output) => (output.code === 0 ? [] : { failure: output.stderr.trim() }),
    };
  }

  it("names the checkers that failed or ran out of time, and kills the slow ones", async () => {
    const started = Date.now();
    const run = await runProjectLints(bed.projectRoot, {
      signal: never,
      timeoutMs: 500,
      checkers: [
        shellChecker("fine", "exit 0"),
        shellChecker("broken", "echo 'config is broken' >&2; exit 3"),
        shellChecker("slow", "sleep 30"),
      ],
    });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(run).toMatchObject({
      detected: ["fine", "broken", "slow"],
      ran: ["fine"],
      failed: [{ checker: "broken", reason: "config is broken" }],
      timedOut: ["slow"],
      cancelled: false,
    });
  });

  it("runs only the checkers for the kinds of file in scope", async () => {
    const run = await runProjectLints(bed.projectRoot, {
      files: ["README.md"],
      signal: never,
      timeoutMs: 5000,
      checkers: [shellChecker("text", "exit 0")],
    });
    expect(run.detected).toEqual(["text"]);
    expect(run.ran).toEqual([]);
  });

  it("skips checkers the project does not use", async () => {
    bed.write("package.json", "{}");
    const run = await runProjectLints(bed.projectRoot, { signal: never, timeoutMs: 5000 });
    expect(run.detected).toEqual([]);
    expect(await typescriptChecker.detect(bed.projectRoot)).toBeUndefined();
  });
});

describe("newDiagnostics", () => {
  it("ignores positions, so problems an edit only moved are not new", () => {
    const before = [diagnostic({ line: 3, message: "old" })];
    const now = [diagnostic({ line: 5, message: "old" }), diagnostic({ line: 1, message: "fresh" })];
    expect(newDiagnostics(now, before)).toEqual([diagnostic({ line: 1, message: "fresh" })]);
  });

  it("counts duplicates: a second identical problem is new", () => {
    const before = [diagnostic({ line: 3 })];
    const now = [diagnostic({ line: 3 }), diagnostic({ line: 8 })];
    expect(newDiagnostics(now, before)).toEqual([diagnostic({ line: 8 })]);
  });
});

describe("LintBaseline", () => {
  /** Reports each line of the edited file that says "bad" as an error. */
  const badLines: Checker = {
    name: "bad-lines",
    extensions: new Set([".txt"]),
    detect: async () => "/bin/sh",
    args: (files) => ["-c", 'grep -n bad "$0" || true', ...(files ?? [])],
    parse: (output) =>
      output.stdout
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => {
          const [number, ...text] = line.split(":");
          return diagnostic({
            file: "notes.txt",
            line: Number(number),
            message: text.join(":"),
            source: "bad-lines",
          });
        }),
  };

  it("compares an edit with what a read_lints run recorded", async () => {
    bed.write("notes.txt", "bad one\nfine\n");
    const baseline = new LintBaseline();
    const run = await runProjectLints(bed.projectRoot, {
      files: ["notes.txt"],
      signal: never,
      timeoutMs: 5000,
      checkers: [badLines],
    });
    baseline.recordRun(run, ["notes.txt"]);
    expect(baseline.get("notes.txt")).toHaveLength(1);

    bed.write("notes.txt", "new line\nbad one\nbad two\n");
    const after = await baseline.afterEdit(bed.projectRoot, "notes.txt", never, { checkers: [badLines] });
    expect(after?.introduced).toEqual([
      diagnostic({ file: "notes.txt", line: 3, message: "bad two", source: "bad-lines" }),
    ]);
    expect(baseline.get("notes.txt")).toHaveLength(2);
  });
});

describe("diagnosticsAfterEdit with the real TypeScript", () => {
  it("reports only the error the edit introduced", async () => {
    bed.typescriptProject();
    bed.write("src/a.ts", 'export const n: number = "old";\n');
    bed.write("src/b.ts", "export const other: string = 1;\n");
    const baseline = new LintBaseline();

    const first = await baseline.afterEdit(bed.projectRoot, "src/a.ts", never);
    expect(first?.ran).toEqual(["tsc"]);
    expect(first?.introduced).toBeUndefined();
    expect(first?.diagnostics).toEqual([
      {
        file: "src/a.ts",
        line: 1,
        column: 14,
        severity: "error",
        message: "Type 'string' is not assignable to type 'number'.",
        source: "tsc",
        code: "TS2322",
      },
    ]);
    expect(formatAfterEdit(first)).toBe(
      "src/a.ts now has 1 error:\n  1:14 error TS2322: Type 'string' is not assignable to type 'number'. (tsc)",
    );

    // The edit adds a line above the old error (moving it) and a new error.
    bed.write("src/a.ts", 'export const flag: boolean = 0;\nexport const n: number = "old";\n');
    const second = await baseline.afterEdit(bed.projectRoot, path.join(bed.projectRoot, "src/a.ts"), never);
    expect(second?.diagnostics).toHaveLength(2);
    expect(second?.introduced).toEqual([
      {
        file: "src/a.ts",
        line: 1,
        column: 14,
        severity: "error",
        message: "Type 'number' is not assignable to type 'boolean'.",
        source: "tsc",
        code: "TS2322",
      },
    ]);
    expect(formatAfterEdit(second)).toBe(
      "This edit introduced 1 new error in src/a.ts:\n" +
        "  1:14 error TS2322: Type 'number' is not assignable to type 'boolean'. (tsc)",
    );

    // Fixing it introduces nothing, and the note is empty.
    bed.write("src/a.ts", 'export const flag: boolean = false;\nexport const n: number = "old";\n');
    const third = await baseline.afterEdit(bed.projectRoot, "src/a.ts", never);
    expect(third?.introduced).toEqual([]);
    expect(formatAfterEdit(third)).toBe("");
  });

  it("gives up silently when the checkers take too long", async () => {
    bed.typescriptProject();
    bed.write("src/a.ts", "export const n = 1;\n");
    const result = await diagnosticsAfterEdit(bed.projectRoot, "src/a.ts", [], never, { timeoutMs: 1 });
    expect(result).toBeUndefined();
  });

  it("runs nothing for a file no checker reads", async () => {
    bed.typescriptProject();
    bed.write("README.md", "# hello\n");
    const started = Date.now();
    const result = await diagnosticsAfterEdit(bed.projectRoot, "README.md", [], never);
    expect(result).toEqual({ file: "README.md", diagnostics: [], introduced: [], ran: [] });
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
