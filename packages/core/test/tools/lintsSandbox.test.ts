import { execFileSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { probeSandbox } from "../../src/policy/sandbox/detectSandbox.js";
import { readFileTool } from "../../src/tools/builtin/readFile/readFile.js";
import { readLintsTool } from "../../src/tools/builtin/readLints/readLints.js";
import { writeFileTool } from "../../src/tools/builtin/writeFile/writeFile.js";
import { LintBaseline } from "../../src/tools/lints/lintBaseline.js";
import type { ToolContext } from "../../src/tools/tool.js";
import { createSandboxTestBed, type SandboxTestBed } from "../policy/sandboxTestBed.js";
import { errorOf, outputOf } from "./toolTestContext.js";

// The project's checkers are project code: a model can write eslint.config.cjs or replace
// node_modules/.bin/tsc. Real bubblewrap, real checkers (and stand-ins for them that try to
// leave a marker beside the project, outside /tmp).
const detection = await probeSandbox();
const unavailable = !detection.available;
if (unavailable) console.warn(`sandbox tests skipped: ${detection.reason}`);

const repoNodeModules = path.resolve(import.meta.dirname, "../../../../node_modules");
const keyVariable = "LINT_TEST_API_KEY";

let bed: SandboxTestBed;
let markers: { tsc: string; eslint: string };
beforeEach(() => {
  bed = createSandboxTestBed();
  markers = { tsc: path.join(bed.outside, "tsc-ran"), eslint: path.join(bed.outside, "eslint-config-ran") };
  process.env[keyVariable] = "lint-test-key-value";
});
afterEach(async () => {
  delete process.env[keyVariable];
  await bed.cleanup();
});

const at = (relative: string) => path.join(bed.projectRoot, relative);

function write(relative: string, contents: string, mode?: number): void {
  mkdirSync(path.dirname(at(relative)), { recursive: true });
  writeFileSync(at(relative), contents);
  if (mode !== undefined) chmodSync(at(relative), mode);
}

/**
 * A project whose tsc is a script and whose ESLint loads its config, as the real one does: both
 * try to touch a marker outside the project, then report one problem each.
 */
function hostileProject(extraTscLine = ""): void {
  write("tsconfig.json", "{}\n");
  write("src/a.ts", "export const a = 1;\n");
  write(
    "node_modules/.bin/tsc",
    [
      "#!/bin/sh",
      `touch '${markers.tsc}' 2>/dev/null`,
      extraTscLine,
      `echo "src/a.ts(1,14): error TS2322: reported by the project's tsc, key=\${${keyVariable}:-none}"`,
      "exit 2",
      "",
    ].join("\n"),
    0o755,
  );
  write(
    "eslint.config.cjs",
    `try { require("node:fs").writeFileSync(${JSON.stringify(markers.eslint)}, "ran"); } catch {}\n` +
      "module.exports = [];\n",
  );
  write(
    "node_modules/.bin/eslint",
    [
      "#!/usr/bin/env node",
      'require(require("node:path").resolve("eslint.config.cjs"));',
      "const file = require('node:path').resolve('src/a.ts');",
      "console.log(JSON.stringify([{ filePath: file, messages: [",
      "  { ruleId: 'no-undef', severity: 2, message: 'reported by the project eslint', line: 1, column: 1 },",
      "] }]));",
      "process.exit(1);",
      "",
    ].join("\n"),
    0o755,
  );
}

type ContextOptions = Parameters<SandboxTestBed["context"]>[0];
function context(options: Partial<ContextOptions> = {}): ToolContext {
  return { ...bed.context({ detection, ...options }), lints: new LintBaseline() };
}

const checkerReport = [
  "Checked with tsc, eslint: 2 errors in 1 file.",
  "",
  "src/a.ts",
  "  1:1 error no-undef: reported by the project eslint (eslint)",
  "  1:14 error TS2322: reported by the project's tsc, key=none (tsc)",
].join("\n");

describe.skipIf(unavailable)("project checkers in the sandbox (real bwrap)", () => {
  it("read_lints runs them sandboxed: their code cannot write outside the project", async () => {
    hostileProject();
    const output = outputOf(await readLintsTool.execute({}, context()));
    expect(output).toBe(checkerReport);
    expect(existsSync(markers.tsc)).toBe(false);
    expect(existsSync(markers.eslint)).toBe(false);
  });

  it("the check after an edit runs them sandboxed too", async () => {
    hostileProject();
    const ctx = context();
    outputOf(await readFileTool.execute({ path: "src/a.ts" }, ctx));
    const result = await writeFileTool.execute({ path: "src/a.ts", contents: "export const a = 2;\n" }, ctx);
    expect(outputOf(result)).toContain(
      "src/a.ts now has 2 errors:\n" +
        "  1:1 error no-undef: reported by the project eslint (eslint)\n" +
        "  1:14 error TS2322: reported by the project's tsc, key=none (tsc)",
    );
    expect(existsSync(markers.tsc)).toBe(false);
    expect(existsSync(markers.eslint)).toBe(false);
  });

  it("without a sandbox they run on the host, still without the user's keys", async () => {
    hostileProject();
    const output = outputOf(await readLintsTool.execute({}, context({ settings: { mode: "off" } })));
    expect(output).toBe(checkerReport);
    // The stand-ins are real: unsandboxed, their code does run.
    expect(existsSync(markers.tsc)).toBe(true);
    expect(existsSync(markers.eslint)).toBe(true);
  });

  it("run nowhere when the sandbox is required and cannot run", async () => {
    hostileProject();
    const refusing = context({
      detection: { available: false, reason: "bwrap is missing" },
      settings: { mode: "required" },
    });
    expect(errorOf(await readLintsTool.execute({}, refusing)).code).toBe("E_SANDBOX_DENIED");
    outputOf(await readFileTool.execute({ path: "src/a.ts" }, refusing));
    const edit = await writeFileTool.execute(
      { path: "src/a.ts", contents: "export const a = 3;\n" },
      refusing,
    );
    expect(outputOf(edit)).not.toContain("now has");
    expect(existsSync(markers.tsc)).toBe(false);
    expect(existsSync(markers.eslint)).toBe(false);
  });

  it("a commondir a checker planted is removed, and read_lints says so", async () => {
    execFileSync("git", ["init", "-q", bed.projectRoot]);
    hostileProject("echo ../other/.git > .git/commondir");
    const output = outputOf(await readLintsTool.execute({}, context()));
    expect(existsSync(at(".git/commondir"))).toBe(false);
    expect(output).toContain(
      "Checked with tsc, eslint: 2 errors in 1 file.\n[sandbox] Removed .git/commondir after the command ended",
    );
  });

  it("the project's real TypeScript still reports its errors from inside the sandbox", async () => {
    // A copy, not a link to this repository's node_modules: wherever the repository lies (a clone
    // under /tmp, which the sandbox replaces with its own), the project's tsc must be inside it.
    cpSync(path.join(repoNodeModules, "typescript"), at("node_modules/typescript"), { recursive: true });
    mkdirSync(at("node_modules/.bin"), { recursive: true });
    symlinkSync("../typescript/bin/tsc", at("node_modules/.bin/tsc"));
    write(
      "tsconfig.json",
      JSON.stringify({ compilerOptions: { strict: true, types: [] }, include: ["src"] }),
    );
    write("src/broken.ts", 'export const total: number = "1";\n');
    const output = outputOf(await readLintsTool.execute({}, context()));
    expect(output).toBe(
      [
        "Checked with tsc: 1 error in 1 file.",
        "",
        "src/broken.ts",
        "  1:14 error TS2322: Type 'string' is not assignable to type 'number'. (tsc)",
      ].join("\n"),
    );
    expect(existsSync(at(".lathe"))).toBe(false);
  });
});
