import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { editFileTool } from "../../src/tools/builtin/editFile/editFile.js";
import { readFileTool } from "../../src/tools/builtin/readFile/readFile.js";
import { FileReadLedger } from "../../src/tools/fileReadLedger.js";
import type { ToolResult } from "../../src/tools/tool.js";
import { ToolRegistry } from "../../src/tools/toolRegistry.js";
import { createToolTestBed, errorOf, type ToolTestBed } from "./toolTestContext.js";

let bed: ToolTestBed;
beforeEach(() => {
  bed = createToolTestBed();
});
afterEach(() => bed.cleanup());

const inProject = (relative: string) => path.join(bed.projectRoot, relative);
const read = (filePath: string) => readFileTool.execute({ path: filePath }, bed.context());
const edit = (args: { path: string; old_string: string; new_string: string; replace_all?: boolean }) =>
  editFileTool.execute(args, bed.context());

/** A file on disk that the session has read, as the model must before editing. */
async function readFixture(relative: string, contents: string | Buffer): Promise<void> {
  writeFileSync(inProject(relative), contents);
  const result = await read(relative);
  if (!result.ok) throw new Error(result.error.message);
}

function okOf(result: ToolResult) {
  if (!result.ok) throw new Error(`expected success, got ${result.error.code}: ${result.error.message}`);
  return result;
}

describe("edit_file", () => {
  it("edits a file it has read, reporting strategy, line counts and the diff", async () => {
    await readFixture("app.ts", "const a = 1;\nconst b = 2;\nconst c = 3;\n");
    const result = okOf(
      await edit({ path: "app.ts", old_string: "const b = 2;", new_string: "const b = 20;\nconst d = 4;" }),
    );
    expect(readFileSync(inProject("app.ts"), "utf8")).toBe(
      "const a = 1;\nconst b = 20;\nconst d = 4;\nconst c = 3;\n",
    );
    const diff = [
      "--- a/app.ts",
      "+++ b/app.ts",
      "@@ -1,3 +1,4 @@",
      " const a = 1;",
      "-const b = 2;",
      "+const b = 20;",
      "+const d = 4;",
      " const c = 3;",
      "",
    ].join("\n");
    expect(result.output).toBe(`Edited app.ts (exact): replaced 1 line with 2 lines.\n\n${diff}`);
    expect(result.metadata).toEqual({
      path: "app.ts",
      strategy: "exact",
      diff,
      matches: [{ startLine: 2, endLine: 2 }],
    });
  });

  it("keeps CRLF, BOM and a missing final newline byte for byte, and the file mode", async () => {
    const original = Buffer.from("\uFEFFfirst\r\n    second   \r\nthird", "utf8");
    await readFixture("win.txt", original);
    chmodSync(inProject("win.txt"), 0o640);
    const result = okOf(
      await edit({ path: "win.txt", old_string: "second\nthird", new_string: "2nd\n3rd\n" }),
    );
    expect(result.metadata?.strategy).toBe("line-trimmed");
    expect(readFileSync(inProject("win.txt"))).toEqual(Buffer.from("\uFEFFfirst\r\n    2nd\r\n3rd", "utf8"));
    expect(statSync(inProject("win.txt")).mode & 0o7777).toBe(0o640);
  });

  it("inserts $ patterns literally", async () => {
    await readFixture("price.js", "const price = PRICE;\n");
    okOf(await edit({ path: "price.js", old_string: "PRICE", new_string: "`$&$1$$'`" }));
    expect(readFileSync(inProject("price.js"), "utf8")).toBe("const price = `$&$1$$'`;\n");
  });

  it("replaces every exact occurrence with replace_all", async () => {
    await readFixture("names.py", "old = 1\nprint(old)\nold += old\n");
    const result = okOf(
      await edit({ path: "names.py", old_string: "old", new_string: "new", replace_all: true }),
    );
    expect(readFileSync(inProject("names.py"), "utf8")).toBe("new = 1\nprint(new)\nnew += new\n");
    expect(result.output.split("\n")[0]).toBe(
      "Edited names.py (exact, 4 places): replaced 4 lines with 4 lines.",
    );
  });

  it("creates a missing file, parents included, from an empty old_string", async () => {
    const result = okOf(
      await edit({ path: "new/dir/file.md", old_string: "", new_string: "# Title\n\nText\n" }),
    );
    expect(readFileSync(inProject("new/dir/file.md"), "utf8")).toBe("# Title\n\nText\n");
    expect(result.output).toBe(
      "Created new/dir/file.md (3 lines).\n\n--- a/new/dir/file.md\n+++ b/new/dir/file.md\n@@ -0,0 +1,3 @@\n+# Title\n+\n+Text\n",
    );
    // The creation counts as a read: the next edit needs none.
    okOf(await edit({ path: "new/dir/file.md", old_string: "Text", new_string: "More text" }));
    expect(readFileSync(inProject("new/dir/file.md"), "utf8")).toBe("# Title\n\nMore text\n");
  });

  it("refuses an empty old_string on a file with content", async () => {
    await readFixture("full.txt", "content\n");
    const error = errorOf(await edit({ path: "full.txt", old_string: "", new_string: "other" }));
    expect(error.code).toBe("E_INVALID_ARGS");
    expect(readFileSync(inProject("full.txt"), "utf8")).toBe("content\n");
  });

  it("reports a missing file with similar names", async () => {
    await readFixture("config.json", "{}\n");
    const error = errorOf(await edit({ path: "confg.json", old_string: "{}", new_string: "[]" }));
    expect(error.code).toBe("E_FILE_NOT_FOUND");
    expect(error.message).toBe(
      "File not found: confg.json. Did you mean: config.json? To create a file, give an empty old_string.",
    );
  });

  it("refuses a file never read, and one changed since it was read", async () => {
    writeFileSync(inProject("unread.txt"), "a\n");
    const unread = errorOf(await edit({ path: "unread.txt", old_string: "a", new_string: "b" }));
    expect(unread).toMatchObject({ code: "E_STALE_FILE" });
    expect(unread.message).toBe(
      "unread.txt cannot be edited: you have not read it in this session. Read it with read_file, then try again.",
    );
    expect(readFileSync(inProject("unread.txt"), "utf8")).toBe("a\n");

    await readFixture("moved.txt", "one\n");
    writeFileSync(inProject("moved.txt"), "one, changed\n");
    const changed = errorOf(await edit({ path: "moved.txt", old_string: "one", new_string: "two" }));
    expect(changed.code).toBe("E_STALE_FILE");
    expect(changed.message).toBe(
      "moved.txt cannot be edited: it changed on disk since you last read it. Read it with read_file, then try again.",
    );
    expect(readFileSync(inProject("moved.txt"), "utf8")).toBe("one, changed\n");
  });

  it("skips the read check when the ledger does not enforce it", async () => {
    writeFileSync(inProject("direct.txt"), "a\n");
    const ctx = { ...bed.context(), fileReads: new FileReadLedger({ enforce: false }) };
    okOf(await editFileTool.execute({ path: "direct.txt", old_string: "a", new_string: "b" }, ctx));
    expect(readFileSync(inProject("direct.txt"), "utf8")).toBe("b\n");
    expect(new FileReadLedger().enforced).toBe(true);
  });

  it("reports matching errors without touching the file", async () => {
    await readFixture("dup.txt", "x = 1\ny = 2\nx = 1\n");
    const multiple = errorOf(await edit({ path: "dup.txt", old_string: "x = 1", new_string: "x = 3" }));
    expect(multiple.code).toBe("E_MULTIPLE_MATCHES");
    expect(multiple.message).toContain("at lines 1, 3");
    const missing = errorOf(await edit({ path: "dup.txt", old_string: "z = 9", new_string: "z = 0" }));
    expect(missing.code).toBe("E_NOT_FOUND");
    expect(errorOf(await edit({ path: "dup.txt", old_string: "y = 2", new_string: "y = 2" })).code).toBe(
      "E_NO_CHANGE",
    );
    expect(readFileSync(inProject("dup.txt"), "utf8")).toBe("x = 1\ny = 2\nx = 1\n");
  });

  it("refuses directories, binary files, invalid UTF-8, NUL in paths and paths outside the project", async () => {
    mkdirSync(inProject("folder"));
    expect(errorOf(await edit({ path: "folder", old_string: "a", new_string: "b" })).code).toBe(
      "E_INVALID_ARGS",
    );

    writeFileSync(inProject("image.png"), "not really a png");
    expect(errorOf(await edit({ path: "image.png", old_string: "not", new_string: "now" })).code).toBe(
      "E_BINARY_FILE",
    );

    const withNul = Buffer.from("text\u0000more\n", "utf8");
    writeFileSync(inProject("data.txt"), withNul);
    await read("data.txt");
    expect(errorOf(await edit({ path: "data.txt", old_string: "text", new_string: "t" })).code).toBe(
      "E_BINARY_FILE",
    );
    expect(readFileSync(inProject("data.txt"))).toEqual(withNul);

    const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]);
    await readFixture("latin1.txt", latin1);
    expect(errorOf(await edit({ path: "latin1.txt", old_string: "caf", new_string: "tea" })).code).toBe(
      "E_BINARY_FILE",
    );
    expect(readFileSync(inProject("latin1.txt"))).toEqual(latin1);

    expect(errorOf(await edit({ path: "a\u0000b.txt", old_string: "", new_string: "x" })).code).toBe(
      "E_SECURITY_BLOCKED",
    );
    expect(errorOf(await edit({ path: "../outside/x.txt", old_string: "", new_string: "x" })).code).toBe(
      "E_PATH_TRAVERSAL",
    );
    expect(readdirSync(bed.outside)).toEqual([]);
  });

  it("refuses a new_string that puts an omission placeholder where code was, and writes nothing", async () => {
    const original =
      "class Cart {\n  add(item) {\n    this.items.push(item);\n  }\n  total() {\n    return 0;\n  }\n}\n";
    await readFixture("cart.js", original);
    const error = errorOf(
      await edit({
        path: "cart.js",
        old_string: "  add(item) {\n    this.items.push(item);\n  }\n  total() {\n    return 0;\n  }",
        new_string:
          "  add(item) {\n    this.items.push(item);\n    this.count++;\n  }\n  // ... rest of the code ...",
      }),
    );
    expect(error.code).toBe("E_INVALID_ARGS");
    expect(error.message).toBe(
      'new_string contains "// ... rest of the code ...", a placeholder for code that is not written out: writing it would replace the code it stands for and delete that code. Write the full text in new_string, every line that should remain, or make a smaller edit whose old_string leaves the unchanged code out.',
    );
    expect(readFileSync(inProject("cart.js"), "utf8")).toBe(original);
  });

  it("keeps a placeholder-like comment the old text already had", async () => {
    await readFixture("notes.py", "def f():\n    # ...\n    return 1\n");
    okOf(
      await edit({
        path: "notes.py",
        old_string: "    # ...\n    return 1",
        new_string: "    # ...\n    return 2",
      }),
    );
    expect(readFileSync(inProject("notes.py"), "utf8")).toBe("def f():\n    # ...\n    return 2\n");
  });
});

describe("edit_file arguments", () => {
  const registry = new ToolRegistry([editFileTool]);
  const validate = (args: unknown) => registry.validate("edit_file", JSON.stringify(args));

  it("refuses missing fields, wrong types and huge strings with E_INVALID_ARGS", () => {
    const cases: unknown[] = [
      { path: "a.txt", new_string: "x" },
      { path: "a.txt", old_string: "x" },
      { old_string: "x", new_string: "y" },
      { path: "", old_string: "x", new_string: "y" },
      { path: "a.txt", old_string: 1, new_string: "y" },
      { path: "a.txt", old_string: "x", new_string: "y", replace_all: "yes" },
      { path: "a.txt", old_string: "x".repeat(10 * 1024 * 1024), new_string: "y" },
      { path: "a.txt", old_string: "x", new_string: "y".repeat(10 * 1024 * 1024) },
    ];
    for (const args of cases) {
      const validation = validate(args);
      expect(validation.ok ? "accepted" : validation.error.code).toBe("E_INVALID_ARGS");
    }
    expect(validate({ path: "a.txt", old_string: "x", new_string: "y", replace_all: true }).ok).toBe(true);
  });
});
