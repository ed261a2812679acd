import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyPatchTool, createApplyPatchTool } from "../../src/tools/builtin/applyPatch/applyPatch.js";
import { diskFileSystem } from "../../src/tools/builtin/applyPatch/patchApplier.js";
import { parsePatch } from "../../src/tools/builtin/applyPatch/patchParser.js";
import { readFileTool } from "../../src/tools/builtin/readFile/readFile.js";
import { FileReadLedger } from "../../src/tools/fileReadLedger.js";
import { ToolRegistry } from "../../src/tools/toolRegistry.js";
import { createToolTestBed, errorOf, outputOf, type ToolTestBed } from "./toolTestContext.js";

let bed: ToolTestBed;
beforeEach(() => {
  bed = createToolTestBed();
});
afterEach(() => bed.cleanup());

const inProject = (relative: string) => path.join(bed.projectRoot, relative);
const put = (relative: string, contents: string | Buffer) => {
  mkdirSync(path.dirname(inProject(relative)), { recursive: true });
  writeFileSync(inProject(relative), contents);
};
const contentsOf = (relative: string) => readFileSync(inProject(relative), "utf8");
/** Files are patched only after the model has read them. */
const readFirst = async (...relatives: string[]) => {
  for (const relative of relatives) outputOf(await readFileTool.execute({ path: relative }, bed.context()));
};
const patchOf = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");
const apply = (patch: string, tool = applyPatchTool) => tool.execute({ patch }, bed.context());

/** Every file under the project with its bytes, to prove a refused patch changed nothing. */
function snapshot(directory = bed.projectRoot): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const absolute = path.join(directory, entry.name);
    const relative = path.relative(bed.projectRoot, absolute);
    if (entry.isDirectory()) Object.assign(files, snapshot(absolute), { [`${relative}/`]: "<dir>" });
    else if (entry.isSymbolicLink()) files[relative] = `-> ${readlinkSync(absolute)}`;
    else files[relative] = readFileSync(absolute).toString("base64");
  }
  return files;
}

describe("apply_patch: changes", () => {
  it("adds a file in new directories", async () => {
    const result = await apply(
      patchOf("*** Add File: src/deep/new.ts", "+export const a = 1;", "+", "+// end"),
    );
    expect(outputOf(result)).toBe("Applied the patch to 1 file:\nA src/deep/new.ts (+3 -0)");
    expect(contentsOf("src/deep/new.ts")).toBe("export const a = 1;\n\n// end\n");
    expect(result.ok && result.metadata).toEqual({
      files: [
        {
          path: "src/deep/new.ts",
          action: "add",
          diff: "--- a/src/deep/new.ts\n+++ b/src/deep/new.ts\n@@ -0,0 +1,3 @@\n+export const a = 1;\n+\n+// end\n",
          added: 3,
          removed: 0,
        },
      ],
    });
  });

  it("updates a file it has read and shows the diff", async () => {
    put("notes.txt", "one\ntwo\nthree\n");
    await readFirst("notes.txt");
    const result = await apply(patchOf("*** Update File: notes.txt", "@@", " one", "-two", "+TWO", " three"));
    expect(outputOf(result)).toBe(
      [
        "Applied the patch to 1 file:",
        "M notes.txt (+1 -1)",
        "",
        "--- a/notes.txt",
        "+++ b/notes.txt",
        "@@ -1,3 +1,3 @@",
        " one",
        "-two",
        "+TWO",
        " three",
      ].join("\n"),
    );
    expect(contentsOf("notes.txt")).toBe("one\nTWO\nthree\n");
  });

  it("deletes a file", async () => {
    put("gone.txt", "a\nb\n");
    expect(outputOf(await apply(patchOf("*** Delete File: gone.txt")))).toBe(
      "Applied the patch to 1 file:\nD gone.txt (+0 -2)",
    );
    expect(existsSync(inProject("gone.txt"))).toBe(false);
  });

  it("moves a file while editing it", async () => {
    put("old/name.ts", "export const x = 1;\nexport const y = 2;\n");
    await readFirst("old/name.ts");
    const result = await apply(
      patchOf(
        "*** Update File: old/name.ts",
        "*** Move to: new/place.ts",
        "@@",
        "-export const x = 1;",
        "+export const x = 10;",
        " export const y = 2;",
      ),
    );
    expect(outputOf(result)).toBe(
      [
        "Applied the patch to 1 file:",
        "R old/name.ts -> new/place.ts (+1 -1)",
        "",
        "--- a/new/place.ts",
        "+++ b/new/place.ts",
        "@@ -1,2 +1,2 @@",
        "-export const x = 1;",
        "+export const x = 10;",
        " export const y = 2;",
      ].join("\n"),
    );
    expect(existsSync(inProject("old/name.ts"))).toBe(false);
    expect(contentsOf("new/place.ts")).toBe("export const x = 10;\nexport const y = 2;\n");
  });

  it("renames a file without hunks and without a read", async () => {
    put("a.txt", "keep me\n");
    expect(outputOf(await apply(patchOf("*** Update File: a.txt", "*** Move to: b.txt")))).toBe(
      "Applied the patch to 1 file:\nR a.txt -> b.txt (+0 -0)",
    );
    expect(contentsOf("b.txt")).toBe("keep me\n");
    expect(existsSync(inProject("a.txt"))).toBe(false);
  });

  it("applies several sections in one patch", async () => {
    put("keep.txt", "alpha\nbeta\n");
    put("drop.txt", "x\n");
    await readFirst("keep.txt");
    const output = outputOf(
      await apply(
        patchOf(
          "*** Add File: added.txt",
          "+hello",
          "*** Update File: keep.txt",
          "@@",
          " alpha",
          "+inserted",
          " beta",
          "*** Delete File: drop.txt",
        ),
      ),
    );
    expect(output.split("\n").slice(0, 4)).toEqual([
      "Applied the patch to 3 files:",
      "A added.txt (+1 -0)",
      "M keep.txt (+1 -0)",
      "D drop.txt (+0 -1)",
    ]);
    expect(snapshot()).toEqual({
      "added.txt": Buffer.from("hello\n").toString("base64"),
      "keep.txt": Buffer.from("alpha\ninserted\nbeta\n").toString("base64"),
    });
  });

  it("applies several hunks to one file, in order", async () => {
    const lines = Array.from({ length: 30 }, (_, index) => `line ${index + 1}`);
    put("many.txt", `${lines.join("\n")}\n`);
    await readFirst("many.txt");
    outputOf(
      await apply(
        patchOf(
          "*** Update File: many.txt",
          "@@",
          " line 2",
          "-line 3",
          "+line three",
          " line 4",
          "@@",
          " line 20",
          "-line 21",
          " line 22",
          "@@",
          " line 29",
          " line 30",
          "+line 31",
        ),
      ),
    );
    const expected = [...lines, "line 31"].filter((line) => line !== "line 21");
    expected[2] = "line three";
    expect(contentsOf("many.txt")).toBe(`${expected.join("\n")}\n`);
  });

  it("uses @@ anchors to pick between identical blocks", async () => {
    put(
      "code.ts",
      ["function first() {", "  return 1;", "}", "", "function second() {", "  return 1;", "}", ""].join(
        "\n",
      ),
    );
    await readFirst("code.ts");
    outputOf(
      await apply(
        patchOf("*** Update File: code.ts", "@@ function second() {", "-  return 1;", "+  return 2;"),
      ),
    );
    expect(contentsOf("code.ts")).toBe(
      ["function first() {", "  return 1;", "}", "", "function second() {", "  return 2;", "}", ""].join(
        "\n",
      ),
    );
  });

  it("follows several @@ anchors in a row", async () => {
    put(
      "shapes.py",
      [
        "class Square:",
        "    def area(self):",
        "        return 0",
        "class Circle:",
        "    def area(self):",
        "        return 0",
        "",
      ].join("\n"),
    );
    await readFirst("shapes.py");
    outputOf(
      await apply(
        patchOf(
          "*** Update File: shapes.py",
          "@@ class Circle:",
          "@@     def area(self):",
          "-        return 0",
          "+        return 3.14 * self.r ** 2",
        ),
      ),
    );
    expect(contentsOf("shapes.py")).toBe(
      [
        "class Square:",
        "    def area(self):",
        "        return 0",
        "class Circle:",
        "    def area(self):",
        "        return 3.14 * self.r ** 2",
        "",
      ].join("\n"),
    );
  });

  it("inserts lines right after an anchor when a hunk only adds", async () => {
    put("list.md", "# Title\nbody\n## Section\ntext\n");
    await readFirst("list.md");
    outputOf(await apply(patchOf("*** Update File: list.md", "@@ ## Section", "+new first line")));
    expect(contentsOf("list.md")).toBe("# Title\nbody\n## Section\nnew first line\ntext\n");
  });

  it("appends at the end when a hunk only adds and has no anchor", async () => {
    put("log.txt", "a\nb\n");
    await readFirst("log.txt");
    outputOf(await apply(patchOf("*** Update File: log.txt", "@@", "+c")));
    expect(contentsOf("log.txt")).toBe("a\nb\nc\n");
  });

  it("matches context despite trailing and indenting whitespace, keeping the file's own context lines", async () => {
    put("ws.py", "def f():   \n\tvalue = 1\n    return value\n");
    await readFirst("ws.py");
    outputOf(
      await apply(
        patchOf(
          "*** Update File: ws.py",
          "@@",
          " def f():",
          "-    value = 1",
          "+    value = 2",
          "     return value",
        ),
      ),
    );
    expect(contentsOf("ws.py")).toBe("def f():   \n    value = 2\n    return value\n");
  });

  it("prefers an exact match over a whitespace-tolerant one", async () => {
    put("pick.txt", "  item\nitem\n");
    await readFirst("pick.txt");
    outputOf(await apply(patchOf("*** Update File: pick.txt", "@@", "-item", "+ITEM")));
    expect(contentsOf("pick.txt")).toBe("  item\nITEM\n");
  });

  it("keeps CRLF line endings, a missing final newline and a BOM", async () => {
    put("win.txt", "\uFEFFfirst\r\nsecond\r\nthird");
    await readFirst("win.txt");
    outputOf(
      await apply(
        patchOf("*** Update File: win.txt", "@@", " first", "-second", "+2nd", "+2nd bis", " third"),
      ),
    );
    expect(readFileSync(inProject("win.txt"))).toEqual(
      Buffer.from("\uFEFFfirst\r\n2nd\r\n2nd bis\r\nthird", "utf8"),
    );
  });

  it("keeps a CRLF file without a final newline CRLF, lines added at its end included", async () => {
    put("two.txt", "a\r\nb");
    await readFirst("two.txt");
    outputOf(await apply(patchOf("*** Update File: two.txt", "@@", " a", "-b", "+B", "+C")));
    expect(readFileSync(inProject("two.txt"))).toEqual(Buffer.from("a\r\nB\r\nC"));
    outputOf(await apply(patchOf("*** Update File: two.txt", "@@", " C", "+D", "*** End of File")));
    expect(readFileSync(inProject("two.txt"))).toEqual(Buffer.from("a\r\nB\r\nC\r\nD"));
  });

  it("keeps the ending of each line it replaces in a file with mixed endings", async () => {
    put("mixed.txt", "a\r\nb\nc\r\nd\r\n");
    await readFirst("mixed.txt");
    outputOf(await apply(patchOf("*** Update File: mixed.txt", "@@", " a", "-b", "-c", "+B", "+C", " d")));
    expect(readFileSync(inProject("mixed.txt"))).toEqual(Buffer.from("a\r\nB\nC\r\nd\r\n"));
  });

  it("gives a line added between CRLF lines of a mostly-LF file their CRLF", async () => {
    put("lf.txt", "x\ny\nz\na\r\nb\r\n");
    await readFirst("lf.txt");
    outputOf(await apply(patchOf("*** Update File: lf.txt", "@@", " a", "+new", " b")));
    expect(readFileSync(inProject("lf.txt"))).toEqual(Buffer.from("x\ny\nz\na\r\nnew\r\nb\r\n"));
  });

  it("requires *** End of File hunks to end the file", async () => {
    put("tail.txt", "x\nend\nmiddle\nend\n");
    await readFirst("tail.txt");
    outputOf(await apply(patchOf("*** Update File: tail.txt", "@@", "-end", "+END", "*** End of File")));
    expect(contentsOf("tail.txt")).toBe("x\nend\nmiddle\nEND\n");
  });

  it("tolerates a blank line closing a hunk that the file does not have", async () => {
    put("last.txt", "a\nb");
    await readFirst("last.txt");
    outputOf(
      await apply(
        ["*** Begin Patch", "*** Update File: last.txt", "@@", " a", "-b", "+B", "", "*** End Patch"].join(
          "\n",
        ),
      ),
    );
    expect(contentsOf("last.txt")).toBe("a\nB");
  });

  it("accepts a patch wrapped in a heredoc and CRLF patch text", async () => {
    outputOf(
      await apply(
        ["<<'EOF'", "*** Begin Patch", "*** Add File: h.txt", "+hi", "*** End Patch", "EOF"].join("\n"),
      ),
    );
    outputOf(
      await apply(["*** Begin Patch", "*** Add File: c.txt", "+crlf", "*** End Patch", ""].join("\r\n")),
    );
    expect(contentsOf("h.txt")).toBe("hi\n");
    expect(contentsOf("c.txt")).toBe("crlf\n");
  });

  it("lets a file it just patched be patched again without another read", async () => {
    put("twice.txt", "1\n");
    await readFirst("twice.txt");
    outputOf(await apply(patchOf("*** Update File: twice.txt", "@@", "-1", "+2")));
    outputOf(await apply(patchOf("*** Update File: twice.txt", "@@", "-2", "+3")));
    expect(contentsOf("twice.txt")).toBe("3\n");
  });

  it("deletes a symbolic link, not what it points to", async () => {
    put("real.txt", "real\n");
    symlinkSync(inProject("real.txt"), inProject("alias.txt"));
    outputOf(await apply(patchOf("*** Delete File: alias.txt")));
    expect(existsSync(inProject("alias.txt"))).toBe(false);
    expect(contentsOf("real.txt")).toBe("real\n");
  });
});

describe("apply_patch: refusals change nothing", () => {
  it("refuses ambiguous context and lists where it matches", async () => {
    put("dup.txt", "a\nx\nb\na\nx\nb\n");
    await readFirst("dup.txt");
    const before = snapshot();
    const error = errorOf(await apply(patchOf("*** Update File: dup.txt", "@@", " a", "-x", "+y")));
    expect(error.code).toBe("E_MULTIPLE_MATCHES");
    expect(error.message).toBe(
      "Patch line 2: The hunk at patch line 3 is ambiguous: its lines match dup.txt at lines 1, 4. " +
        "Add context lines, or an '@@ <line>' anchor such as the enclosing function or class, so the hunk matches one place.",
    );
    expect(snapshot()).toEqual(before);
  });

  it("refuses a hunk that matches nowhere and shows the lines it expected", async () => {
    put("f.txt", "one\ntwo\n");
    await readFirst("f.txt");
    const error = errorOf(await apply(patchOf("*** Update File: f.txt", "@@", " one", "-deux", "+2")));
    expect(error.code).toBe("E_NOT_FOUND");
    expect(error.message).toBe(
      "Patch line 2: The hunk at patch line 3 does not match f.txt. " +
        "Expected these lines (context and removed lines), in this order:\n  one\n  deux\n" +
        "Read the file again and copy these lines exactly as they are now.",
    );
    expect(contentsOf("f.txt")).toBe("one\ntwo\n");
  });

  it("refuses an anchor that is not in the file", async () => {
    put("g.txt", "one\n");
    await readFirst("g.txt");
    const error = errorOf(
      await apply(patchOf("*** Update File: g.txt", "@@ function missing()", "-one", "+1")),
    );
    expect(error.code).toBe("E_NOT_FOUND");
    expect(error.message).toBe(
      'Patch line 2: The hunk at patch line 3: the @@ line "function missing()" was not found in g.txt.',
    );
  });

  it("writes nothing when the second file fails validation", async () => {
    put("a.txt", "a1\na2\n");
    put("b.txt", "b1\nb2\n");
    put("c.txt", "c\n");
    await readFirst("a.txt", "b.txt");
    const before = snapshot();
    const error = errorOf(
      await apply(
        patchOf(
          "*** Update File: a.txt",
          "@@",
          "-a1",
          "+A1",
          "*** Update File: b.txt",
          "@@",
          "-not there",
          "+B",
          "*** Add File: new.txt",
          "+new",
          "*** Delete File: c.txt",
        ),
      ),
    );
    expect(error.code).toBe("E_NOT_FOUND");
    expect(error.message.startsWith("Patch line 6: The hunk at patch line 7 does not match b.txt.")).toBe(
      true,
    );
    expect(snapshot()).toEqual(before);
  });

  it("undoes every write already made when a later write fails", async () => {
    put("a.txt", "a\n");
    put("b.txt", "b\n");
    await readFirst("a.txt");
    const before = snapshot();
    const failingTool = createApplyPatchTool({
      ...diskFileSystem,
      writeFile: (filePath, contents) =>
        filePath.endsWith("new.txt")
          ? Promise.reject(new Error("disk full"))
          : diskFileSystem.writeFile(filePath, contents),
    });
    const error = errorOf(
      await apply(
        patchOf(
          "*** Update File: a.txt",
          "@@",
          "-a",
          "+A",
          "*** Add File: fresh/dir/new.txt",
          "+new",
          "*** Delete File: b.txt",
        ),
        failingTool,
      ),
    );
    expect(error.code).toBe("E_TOOL_EXECUTION");
    expect(error.message).toBe(
      "Writing fresh/dir/new.txt failed: disk full. The change already made was undone; no file was changed.",
    );
    expect(snapshot()).toEqual(before);
  });

  it("puts deleted files back when a later removal fails", async () => {
    put("one.txt", "1\n");
    put("two.txt", "2\n");
    const before = snapshot();
    const failingTool = createApplyPatchTool({
      ...diskFileSystem,
      removeFile: (filePath) =>
        filePath.endsWith("two.txt")
          ? Promise.reject(new Error("busy"))
          : diskFileSystem.removeFile(filePath),
    });
    const error = errorOf(
      await apply(patchOf("*** Delete File: one.txt", "*** Delete File: two.txt"), failingTool),
    );
    expect(error.message).toBe(
      "Deleting two.txt failed: busy. The change already made was undone; no file was changed.",
    );
    expect(snapshot()).toEqual(before);
  });

  it("refuses to update a file that was not read or changed since", async () => {
    put("unread.txt", "x\n");
    const unread = errorOf(await apply(patchOf("*** Update File: unread.txt", "@@", "-x", "+y")));
    expect(unread.code).toBe("E_STALE_FILE");
    expect(unread.message).toBe(
      "Patch line 2: unread.txt cannot be patched: you have not read it in this session. Read it with read_file, then try again.",
    );
    await readFirst("unread.txt");
    put("unread.txt", "x changed\n");
    const changed = errorOf(await apply(patchOf("*** Update File: unread.txt", "@@", "-x changed", "+y")));
    expect(changed.code).toBe("E_STALE_FILE");
    expect(changed.message).toContain("it changed on disk since you last read it");
    expect(contentsOf("unread.txt")).toBe("x changed\n");
  });

  it("skips the read check where reads are not enforced (outside a session)", async () => {
    put("free.txt", "x\n");
    const ctx = { ...bed.context(), fileReads: new FileReadLedger({ enforce: false }) };
    outputOf(
      await applyPatchTool.execute({ patch: patchOf("*** Update File: free.txt", "@@", "-x", "+y") }, ctx),
    );
    expect(contentsOf("free.txt")).toBe("y\n");
  });

  it("refuses to add a file that exists, and to update or delete one that does not", async () => {
    put("here.txt", "here\n");
    const adding = errorOf(await apply(patchOf("*** Add File: here.txt", "+again")));
    expect(adding.code).toBe("E_INVALID_ARGS");
    expect(adding.message).toBe(
      "Patch line 2: here.txt already exists. Use '*** Update File: here.txt' to change it.",
    );
    const updating = errorOf(await apply(patchOf("*** Update File: hera.txt", "@@", "-x", "+y")));
    expect(updating.code).toBe("E_FILE_NOT_FOUND");
    expect(updating.message).toBe("Patch line 2: File not found: hera.txt. Did you mean: here.txt?");
    expect(errorOf(await apply(patchOf("*** Delete File: nothing.txt"))).code).toBe("E_FILE_NOT_FOUND");
    expect(contentsOf("here.txt")).toBe("here\n");
  });

  it("refuses binary files, directories, an existing move target and a file named twice", async () => {
    put("image.png", "not really");
    put("blob.txt", Buffer.from([0x61, 0x00, 0x62]));
    put("dir/inside.txt", "x\n");
    put("src.txt", "s\n");
    put("taken.txt", "t\n");
    await readFirst("src.txt");
    expect(errorOf(await apply(patchOf("*** Delete File: image.png"))).code).toBe("E_BINARY_FILE");
    expect(errorOf(await apply(patchOf("*** Delete File: blob.txt"))).code).toBe("E_BINARY_FILE");
    expect(errorOf(await apply(patchOf("*** Delete File: dir"))).code).toBe("E_INVALID_ARGS");
    const moving = errorOf(await apply(patchOf("*** Update File: src.txt", "*** Move to: taken.txt")));
    expect(moving.message).toBe("Patch line 2: Cannot move src.txt to taken.txt: taken.txt already exists.");
    const twice = errorOf(
      await apply(patchOf("*** Update File: src.txt", "@@", "-s", "+S", "*** Delete File: src.txt")),
    );
    expect(twice.code).toBe("E_INVALID_ARGS");
    expect(twice.message).toBe(
      "Patch line 6: src.txt appears in the patch twice (lines 2 and 6); put all its changes in one section.",
    );
    expect(contentsOf("src.txt")).toBe("s\n");
  });

  it("refuses path traversal in every kind of header, before writing anything", async () => {
    put("inside.txt", "in\n");
    await readFirst("inside.txt");
    writeFileSync(path.join(bed.outside, "victim.txt"), "safe\n");
    symlinkSync(bed.outside, inProject("escape"));
    const before = snapshot();
    const headers = [
      ["*** Add File: ../outside/evil.txt", "+x"],
      ["*** Update File: ../outside/victim.txt", "@@", "-safe", "+owned"],
      ["*** Delete File: ../outside/victim.txt"],
      ["*** Update File: inside.txt", "*** Move to: ../outside/moved.txt"],
      ["*** Add File: escape/evil.txt", "+x"],
      [`*** Add File: ${path.join(bed.outside, "abs.txt")}`, "+x"],
    ];
    for (const section of headers) {
      const error = errorOf(await apply(patchOf("*** Add File: fine.txt", "+ok", ...section)));
      expect(error.code).toBe("E_PATH_TRAVERSAL");
      expect(error.message.startsWith("Patch line 4: ")).toBe(true);
    }
    expect(snapshot()).toEqual(before);
    expect(readdirSync(bed.outside).sort()).toEqual(["victim.txt"]);
    expect(readFileSync(path.join(bed.outside, "victim.txt"), "utf8")).toBe("safe\n");
  });

  it("writes nothing when cancelled before writing", async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await applyPatchTool.execute(
      { patch: patchOf("*** Add File: never.txt", "+x") },
      bed.context({ signal: controller.signal }),
    );
    expect(errorOf(result).code).toBe("E_CANCELLED");
    expect(readdirSync(bed.projectRoot)).toEqual([]);
  });

  it("refuses NUL bytes in paths", async () => {
    const error = errorOf(await apply(patchOf("*** Add File: bad\0name.txt", "+x")));
    expect(error.code).toBe("E_SECURITY_BLOCKED");
    expect(readdirSync(bed.projectRoot)).toEqual([]);
  });

  it("refuses added lines holding an omission placeholder the file does not have", async () => {
    const original = "<ul>\n  <li>one</li>\n  <li>two</li>\n</ul>\n";
    put("list.html", original);
    await readFirst("list.html");
    const before = snapshot();
    const error = errorOf(
      await apply(
        patchOf(
          "*** Update File: list.html",
          "@@",
          " <ul>",
          "-  <li>one</li>",
          "-  <li>two</li>",
          "+  <li>zero</li>",
          "+  <!-- ... -->",
          " </ul>",
        ),
      ),
    );
    expect(error.code).toBe("E_INVALID_ARGS");
    expect(error.message).toBe(
      'Patch line 2: The hunk at patch line 3 of list.html adds "<!-- ... -->", a placeholder for code that is not written out: writing it would replace the code it stands for and delete that code. Write every line that should remain as context or added lines, or use smaller hunks that leave the unchanged code out; nothing was changed.',
    );
    expect(snapshot()).toEqual(before);
  });

  it("accepts a placeholder-like comment the file already has", async () => {
    put("keep.js", "a();\n/* existing code */\nb();\n");
    await readFirst("keep.js");
    outputOf(
      await apply(
        patchOf(
          "*** Update File: keep.js",
          "@@",
          "-a();",
          "-/* existing code */",
          "+/* existing code */",
          "+A();",
          " b();",
        ),
      ),
    );
    expect(contentsOf("keep.js")).toBe("/* existing code */\nA();\nb();\n");
  });
});

describe("apply_patch: malformed patches", () => {
  const invalid = async (patch: string) => {
    const error = errorOf(await apply(patch));
    expect(error.code).toBe("E_INVALID_ARGS");
    expect(readdirSync(bed.projectRoot)).toEqual([]);
    return error.message;
  };

  it("names the patch line of each mistake", async () => {
    expect(await invalid("*** Add File: a.txt\n+a\n*** End Patch")).toBe(
      "Invalid patch at line 1: the first line must be '*** Begin Patch', found '*** Add File: a.txt'.",
    );
    expect(await invalid("*** Begin Patch\n*** Add File: a.txt\n+a\n")).toBe(
      "Invalid patch at line 3: the last line must be '*** End Patch', found '+a'.",
    );
    expect(await invalid("\n\n*** Begin Patch\n*** Frobnicate File: a.txt\n*** End Patch")).toBe(
      "Invalid patch at line 4: expected '*** Add File: <path>', '*** Delete File: <path>' or '*** Update File: <path>', found '*** Frobnicate File: a.txt'.",
    );
    expect(await invalid(patchOf("*** Update File: a.txt", "@@", " ok", "?bad prefix"))).toBe(
      "Invalid patch at line 5: expected a hunk line (starting with ' ', '-' or '+'), '@@' for a new hunk, or a '*** ' section header; found '?bad prefix'.",
    );
    expect(await invalid(patchOf("*** Update File: a.txt", "@@", "?bad prefix"))).toBe(
      "Invalid patch at line 4: expected hunk lines starting with ' ' (context), '-' (removed) or '+' (added); found '?bad prefix'.",
    );
    expect(await invalid(patchOf("*** Update File: a.txt", "@@ x", "-y", "+z", "no marker"))).toBe(
      "Invalid patch at line 6: expected a hunk line (starting with ' ', '-' or '+'), '@@' for a new hunk, or a '*** ' section header; found 'no marker'.",
    );
    expect(await invalid(patchOf("*** Update File: a.txt", "@@ x", "-y", "*** Add Fil: b"))).toBe(
      "Invalid patch at line 5: expected '*** Add File: <path>', '*** Delete File: <path>' or '*** Update File: <path>', found '*** Add Fil: b'.",
    );
    expect(await invalid(patchOf("*** Update File: a.txt"))).toBe(
      "Invalid patch at line 2: the Update File section for 'a.txt' has no hunks.",
    );
    expect(await invalid(patchOf("*** Add File: a.txt", "+a", "b"))).toBe(
      "Invalid patch at line 4: expected '*** Add File: <path>', '*** Delete File: <path>' or '*** Update File: <path>', found 'b'.",
    );
    expect(await invalid(patchOf("*** Add File:   "))).toBe(
      "Invalid patch at line 2: '*** Add File:' needs a path.",
    );
    expect(await invalid(patchOf())).toBe(
      "Invalid patch at line 2: the patch has no file sections between its first and last lines.",
    );
    expect(await invalid("   \n")).toBe(
      "Invalid patch at line 1: the patch is empty; it must start with '*** Begin Patch'.",
    );
  });

  it("explains an Add File line that lost its + prefix", async () => {
    const message = await invalid(patchOf("*** Add File: a.txt", "+one", "", "+three"));
    expect(message).toBe(
      "Invalid patch at line 5: expected '*** Add File: <path>', '*** Delete File: <path>' or '*** Update File: <path>', found '+three'. In an Add File section every line, blank ones too, starts with '+'.",
    );
  });

  it("parses unified-diff hunk headers as anchors without their numbers", () => {
    const parsed = parsePatch(
      patchOf("*** Update File: a.ts", "@@ -3,7 +3,8 @@ function f() {", "-a", "+b", "@@ -20 +21 @@", " c"),
    );
    expect(parsed).toEqual({
      ok: true,
      operations: [
        {
          type: "update",
          path: "a.ts",
          patchLine: 2,
          moveTo: undefined,
          hunks: [
            {
              patchLine: 3,
              anchors: ["function f() {"],
              lines: [
                { kind: "remove", text: "a" },
                { kind: "add", text: "b" },
              ],
              endOfFile: false,
            },
            { patchLine: 6, anchors: [], lines: [{ kind: "context", text: "c" }], endOfFile: false },
          ],
        },
      ],
    });
  });
});

describe("apply_patch: arguments", () => {
  const registry = new ToolRegistry([applyPatchTool]);

  it("answers missing, wrong-typed and absurd arguments with E_INVALID_ARGS", () => {
    for (const raw of ["{}", '{"patch": 42}', '{"patch": ""}', '{"patch": ["a"]}', "not json"]) {
      const result = registry.validate("apply_patch", raw);
      expect(result.ok || result.error.code).toBe("E_INVALID_ARGS");
    }
    const huge = JSON.stringify({ patch: "x".repeat(5_000_001) });
    expect(registry.validate("apply_patch", huge).ok).toBe(false);
  });

  it("is an edit tool of medium risk", () => {
    expect(applyPatchTool.kind).toBe("edit");
    expect(applyPatchTool.risk({ patch: "" }, { projectRoot: bed.projectRoot })).toBe("medium");
    expect(
      lstatSync(new URL("../../src/tools/builtin/applyPatch/applyPatch.md", import.meta.url)).isFile(),
    ).toBe(true);
  });
});
