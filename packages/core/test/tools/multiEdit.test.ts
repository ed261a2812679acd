import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { multiEditTool } from "../../src/tools/builtin/multiEdit/multiEdit.js";
import { readFileTool } from "../../src/tools/builtin/readFile/readFile.js";
import type { ToolResult } from "../../src/tools/tool.js";
import { ToolRegistry } from "../../src/tools/toolRegistry.js";
import { createToolTestBed, errorOf, type ToolTestBed } from "./toolTestContext.js";

let bed: ToolTestBed;
beforeEach(() => {
  bed = createToolTestBed();
});
afterEach(() => bed.cleanup());

type Edit = { old_string: string; new_string: string; replace_all?: boolean };
const inProject = (relative: string) => path.join(bed.projectRoot, relative);
const multiEdit = (filePath: string, edits: Edit[]) =>
  multiEditTool.execute({ path: filePath, edits }, bed.context());

async function readFixture(relative: string, contents: string | Buffer): Promise<void> {
  writeFileSync(inProject(relative), contents);
  const result = await readFileTool.execute({ path: relative }, bed.context());
  if (!result.ok) throw new Error(result.error.message);
}

function okOf(result: ToolResult) {
  if (!result.ok) throw new Error(`expected success, got ${result.error.code}: ${result.error.message}`);
  return result;
}

describe("multi_edit", () => {
  it("applies edits in order, each on the previous result, in one write with one diff", async () => {
    await readFixture("calc.ts", "function add(a, b) {\n  return a + b;   \n}\n");
    const result = okOf(
      await multiEdit("calc.ts", [
        { old_string: "function add(a, b)", new_string: "function sum(a, b)" },
        { old_string: "  return a + b;\n}", new_string: "  return a + b + 0;\n}" },
        { old_string: "sum", new_string: "total" },
      ]),
    );
    expect(readFileSync(inProject("calc.ts"), "utf8")).toBe(
      "function total(a, b) {\n  return a + b + 0;\n}\n",
    );
    const diff = [
      "--- a/calc.ts",
      "+++ b/calc.ts",
      "@@ -1,3 +1,3 @@",
      "-function add(a, b) {",
      "-  return a + b;   ",
      "+function total(a, b) {",
      "+  return a + b + 0;",
      " }",
      "",
    ].join("\n");
    expect(result.output).toBe(`Edited calc.ts with 3 edits (exact, line-trimmed, exact).\n\n${diff}`);
    expect(result.metadata).toEqual({
      path: "calc.ts",
      strategies: ["exact", "line-trimmed", "exact"],
      diff,
    });
  });

  it("writes nothing when a later edit fails, and names it", async () => {
    const original = Buffer.from("alpha\r\nbeta\r\ngamma\r\n", "utf8");
    await readFixture("list.txt", original);
    const error = errorOf(
      await multiEdit("list.txt", [
        { old_string: "alpha", new_string: "ALPHA" },
        { old_string: "delta", new_string: "DELTA" },
        { old_string: "gamma", new_string: "GAMMA" },
      ]),
    );
    expect(error.code).toBe("E_NOT_FOUND");
    expect(
      error.message.startsWith(
        "edits[1] (edit 2 of 3) failed, so nothing was written: old_string was not found",
      ),
    ).toBe(true);
    expect(readFileSync(inProject("list.txt"))).toEqual(original);
  });

  it("refuses an edit whose new_string carries an omission placeholder, writing nothing", async () => {
    const original =
      "import os\n\nclass Store:\n    def get(self):\n        return 1\n\n    def put(self):\n        pass\n";
    await readFixture("store.py", original);
    const error = errorOf(
      await multiEdit("store.py", [
        { old_string: "import os", new_string: "import os\nimport sys" },
        {
          old_string: "    def get(self):\n        return 1\n\n    def put(self):\n        pass",
          new_string: "    def get(self):\n        return 2\n\n    # (rest of methods unchanged)",
        },
      ]),
    );
    expect(error.code).toBe("E_INVALID_ARGS");
    expect(error.message).toContain(
      'edits[1] (edit 2 of 2) failed, so nothing was written: new_string contains "# (rest of methods unchanged)", a placeholder for code that is not written out: writing it would replace the code it stands for and delete that code. Write the full text in new_string',
    );
    expect(readFileSync(inProject("store.py"), "utf8")).toBe(original);
  });

  it("keeps the failing edit's code for an ambiguous match", async () => {
    await readFixture("dup.txt", "a\nb\na\n");
    const error = errorOf(
      await multiEdit("dup.txt", [
        { old_string: "b", new_string: "c" },
        { old_string: "a", new_string: "z" },
      ]),
    );
    expect(error.code).toBe("E_MULTIPLE_MATCHES");
    expect(error.message).toContain("edits[1]");
    expect(readFileSync(inProject("dup.txt"), "utf8")).toBe("a\nb\na\n");
  });

  it("creates a file when the first edit has an empty old_string", async () => {
    const result = okOf(
      await multiEdit("made.txt", [
        { old_string: "", new_string: "one\ntwo\n" },
        { old_string: "two", new_string: "2" },
      ]),
    );
    expect(readFileSync(inProject("made.txt"), "utf8")).toBe("one\n2\n");
    expect(result.metadata?.strategies).toEqual(["create", "exact"]);
  });

  it("refuses a missing file otherwise, an unread file, and edits that cancel out", async () => {
    expect(errorOf(await multiEdit("none.txt", [{ old_string: "a", new_string: "b" }])).code).toBe(
      "E_FILE_NOT_FOUND",
    );

    writeFileSync(inProject("unread.txt"), "a\n");
    expect(errorOf(await multiEdit("unread.txt", [{ old_string: "a", new_string: "b" }])).code).toBe(
      "E_STALE_FILE",
    );

    await readFixture("same.txt", "a\n");
    const error = errorOf(
      await multiEdit("same.txt", [
        { old_string: "a", new_string: "b" },
        { old_string: "b", new_string: "a" },
      ]),
    );
    expect(error.code).toBe("E_NO_CHANGE");
    expect(readFileSync(inProject("same.txt"), "utf8")).toBe("a\n");
  });

  it("refuses bad arguments with E_INVALID_ARGS", () => {
    const registry = new ToolRegistry([multiEditTool]);
    const validate = (args: unknown) => registry.validate("multi_edit", JSON.stringify(args));
    const edit = { old_string: "a", new_string: "b" };
    const cases: unknown[] = [
      { path: "a.txt" },
      { path: "a.txt", edits: [] },
      { path: "a.txt", edits: Array.from({ length: 51 }, () => edit) },
      { path: "a.txt", edits: [{ old_string: "a" }] },
      { path: "a.txt", edits: "a->b" },
      { path: "a.txt", edits: [{ old_string: "a", new_string: "b".repeat(10 * 1024 * 1024) }] },
    ];
    for (const args of cases) {
      const validation = validate(args);
      expect(validation.ok ? "accepted" : validation.error.code).toBe("E_INVALID_ARGS");
    }
    expect(validate({ path: "a.txt", edits: Array.from({ length: 50 }, () => edit) }).ok).toBe(true);
  });
});
