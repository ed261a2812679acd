import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readLintsTool } from "../../src/tools/builtin/readLints/readLints.js";
import { createToolTestBed, outputOf, type ToolTestBed } from "./toolTestContext.js";

let bed: ToolTestBed;
beforeEach(() => {
  bed = createToolTestBed();
});
afterEach(() => bed.cleanup());

describe("read_lints", () => {
  it("reports the project's type errors with file, line and message", async () => {
    bed.typescriptProject();
    bed.write("src/ok.ts", "export const fine = 1;\n");
    bed.write(
      "src/broken.ts",
      'import { fine } from "./ok.js";\n\nexport const total: number = fine + "1";\n',
    );
    const output = outputOf(await readLintsTool.execute({}, bed.context()));
    expect(output).toBe(
      [
        "Checked with tsc: 1 error in 1 file.",
        "",
        "src/broken.ts",
        "  3:14 error TS2322: Type 'string' is not assignable to type 'number'. (tsc)",
      ].join("\n"),
    );
  });

  it("reports on the given paths only, at most 20 problems per file", async () => {
    bed.typescriptProject();
    bed.write(
      "src/many.ts",
      Array.from({ length: 25 }, (_, index) => `export const v${index}: number = "${index}";`).join("\n"),
    );
    bed.write("src/other.ts", "export const s: string = 1;\n");
    const output = outputOf(await readLintsTool.execute({ paths: ["src/many.ts"] }, bed.context()));
    const lines = output.split("\n");
    expect(lines[0]).toBe("Checked with tsc: 25 errors in 1 file.");
    expect(lines.filter((line) => line.includes("error TS2322"))).toHaveLength(20);
    expect(lines.at(-1)).toBe("  … 5 more in this file");
    expect(output).not.toContain("other.ts");
  });

  it("says no problems were found when there are none", async () => {
    bed.typescriptProject();
    bed.write("src/ok.ts", "export const fine = 1;\n");
    expect(outputOf(await readLintsTool.execute({ paths: ["src"] }, bed.context()))).toBe(
      "Checked with tsc: no problems found.",
    );
  });

  it("says so when no checker of the project reads the given files", async () => {
    bed.typescriptProject();
    bed.write("README.md", "# hello\n");
    expect(outputOf(await readLintsTool.execute({ paths: ["README.md"] }, bed.context()))).toBe(
      "None of the project's checkers (tsc) checks these files.",
    );
  });

  it("says so when the project has no checkers", async () => {
    bed.write("main.py", "print('hi')\n");
    bed.write("index.js", "console.log(1)\n");
    const output = outputOf(await readLintsTool.execute({}, bed.context()));
    expect(output).toMatch(/^No checkers found for this project\. Looked for TypeScript/);
  });

  it("refuses paths outside the project and reports missing ones", async () => {
    const outside = await readLintsTool.execute({ paths: ["../outside"] }, bed.context());
    expect(outside.ok ? "" : outside.error.code).toBe("E_PATH_TRAVERSAL");
    const missing = await readLintsTool.execute({ paths: ["nope.ts"] }, bed.context());
    expect(missing.ok ? "" : missing.error.code).toBe("E_FILE_NOT_FOUND");
  });

  it("is a safe read tool", () => {
    expect(readLintsTool.kind).toBe("read");
    expect(readLintsTool.risk({}, { projectRoot: "/" })).toBe("safe");
  });
});
