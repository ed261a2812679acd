import { describe, expect, it } from "vitest";
import { type DiffLine, parseDiffFile, splitPatch, summarizeDiff } from "../src/render/diffModel.js";
import { splitPatchSections } from "../src/render/patchSections.js";

const lines = (count: number) => Array.from({ length: count }, (_, index) => `line ${index + 1}`);
const text = (all: string[]) => `${all.join("\n")}\n`;

const context = (oldNumber: number, newNumber: number, body: string): DiffLine => ({
  kind: "context",
  text: body,
  oldNumber,
  newNumber,
});
const del = (oldNumber: number, body: string): DiffLine => ({ kind: "del", text: body, oldNumber });
const add = (newNumber: number, body: string): DiffLine => ({ kind: "add", text: body, newNumber });

const twoFileGitPatch = [
  "diff --git a/src/app.ts b/src/app.ts",
  "index 1111111..2222222 100644",
  "--- a/src/app.ts",
  "+++ b/src/app.ts",
  "@@ -10,4 +10,5 @@ export function start() {",
  "   const port = 80;",
  "-  listen(port);",
  '+  const host = "localhost";',
  "+  listen(port, host);",
  "   return port;",
  " }",
  "diff --git a/README.md b/README.md",
  "index 3333333..4444444 100644",
  "--- a/README.md",
  "+++ b/README.md",
  "@@ -1,2 +1,2 @@",
  " # Title",
  "-Old intro",
  "+New intro",
  "",
].join("\n");

describe("parseDiffFile from texts", () => {
  it("gives exact hunks, line numbers and counts for a small edit", () => {
    const before = lines(20);
    const after = [...before];
    after[1] = "line 2 changed";
    after.splice(15, 1);
    const [file] = parseDiffFile({ path: "src/a.ts", oldText: text(before), newText: text(after) });
    expect(file).toEqual({
      path: "src/a.ts",
      change: "modified",
      binary: false,
      added: 1,
      removed: 2,
      hunks: [
        {
          header: "@@ -1,5 +1,5 @@",
          lines: [
            context(1, 1, "line 1"),
            del(2, "line 2"),
            add(2, "line 2 changed"),
            context(3, 3, "line 3"),
            context(4, 4, "line 4"),
            context(5, 5, "line 5"),
          ],
        },
        {
          header: "@@ -13,7 +13,6 @@",
          lines: [
            context(13, 13, "line 13"),
            context(14, 14, "line 14"),
            context(15, 15, "line 15"),
            del(16, "line 16"),
            context(17, 16, "line 17"),
            context(18, 17, "line 18"),
            context(19, 18, "line 19"),
          ],
        },
      ],
    });
  });

  it("shows a new file as all additions", () => {
    expect(parseDiffFile({ path: "new.txt", newText: "a\nb" })).toEqual([
      {
        path: "new.txt",
        change: "added",
        binary: false,
        added: 2,
        removed: 0,
        hunks: [
          {
            header: "@@ -0,0 +1,2 @@",
            lines: [add(1, "a"), add(2, "b"), { kind: "note", text: "No newline at end of file" }],
          },
        ],
      },
    ]);
  });

  it("shows a deleted file as all removals", () => {
    expect(parseDiffFile({ path: "gone.txt", oldText: "x\ny\n" })).toEqual([
      {
        path: "gone.txt",
        change: "deleted",
        binary: false,
        added: 0,
        removed: 2,
        hunks: [{ header: "@@ -1,2 +0,0 @@", lines: [del(1, "x"), del(2, "y")] }],
      },
    ]);
  });

  it("has no hunks for identical texts", () => {
    expect(parseDiffFile({ path: "same.txt", oldText: "a\n", newText: "a\n" })[0]).toMatchObject({
      hunks: [],
      added: 0,
      removed: 0,
    });
  });
});

describe("parseDiffFile from patches", () => {
  it("reads every file of a git patch with its line numbers", () => {
    expect(parseDiffFile({ path: "", patch: twoFileGitPatch })).toEqual([
      {
        path: "src/app.ts",
        change: "modified",
        binary: false,
        added: 2,
        removed: 1,
        hunks: [
          {
            header: "@@ -10,4 +10,5 @@",
            lines: [
              context(10, 10, "  const port = 80;"),
              del(11, "  listen(port);"),
              add(11, '  const host = "localhost";'),
              add(12, "  listen(port, host);"),
              context(12, 13, "  return port;"),
              context(13, 14, "}"),
            ],
          },
        ],
      },
      {
        path: "README.md",
        change: "modified",
        binary: false,
        added: 1,
        removed: 1,
        hunks: [
          {
            header: "@@ -1,2 +1,2 @@",
            lines: [context(1, 1, "# Title"), del(2, "Old intro"), add(2, "New intro")],
          },
        ],
      },
    ]);
  });

  it("reads git's new, deleted, renamed and binary files", () => {
    const patch = [
      "diff --git a/new.txt b/new.txt",
      "new file mode 100644",
      "index 0000000..3333333",
      "--- /dev/null",
      "+++ b/new.txt",
      "@@ -0,0 +1,2 @@",
      "+hello",
      "+world",
      "diff --git a/old.txt b/old.txt",
      "deleted file mode 100644",
      "index 4444444..0000000",
      "--- a/old.txt",
      "+++ /dev/null",
      "@@ -1 +0,0 @@",
      "-bye",
      "diff --git a/x.ts b/y.ts",
      "similarity index 100%",
      "rename from x.ts",
      "rename to y.ts",
      "diff --git a/logo.png b/logo.png",
      "index 5555555..6666666 100644",
      "Binary files a/logo.png and b/logo.png differ",
    ].join("\n");
    const files = parseDiffFile({ path: "", patch });
    expect(
      files.map(({ path, oldPath, change, binary, added, removed }) => ({
        path,
        oldPath,
        change,
        binary,
        added,
        removed,
      })),
    ).toEqual([
      { path: "new.txt", oldPath: undefined, change: "added", binary: false, added: 2, removed: 0 },
      { path: "old.txt", oldPath: undefined, change: "deleted", binary: false, added: 0, removed: 1 },
      { path: "y.ts", oldPath: "x.ts", change: "renamed", binary: false, added: 0, removed: 0 },
      { path: "logo.png", oldPath: undefined, change: "modified", binary: true, added: 0, removed: 0 },
    ]);
    expect(files[0]!.hunks).toEqual([
      { header: "@@ -0,0 +1,2 @@", lines: [add(1, "hello"), add(2, "world")] },
    ]);
    expect(files[1]!.hunks).toEqual([{ header: "@@ -1,1 +0,0 @@", lines: [del(1, "bye")] }]);
  });

  it("names a headerless hunk after the DiffFile's path", () => {
    const [file] = parseDiffFile({ path: "notes.md", patch: "@@ -3,1 +3,1 @@\n-old\n+new\n" });
    expect(file).toMatchObject({ path: "notes.md", added: 1, removed: 1 });
    expect(file!.hunks[0]!.lines).toEqual([del(3, "old"), add(3, "new")]);
  });

  it("keeps a patch it cannot parse as text", () => {
    const patch = "--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-one\n+uno\n";
    expect(parseDiffFile({ path: "x", patch })).toEqual([
      {
        path: "x",
        change: "modified",
        binary: false,
        hunks: [],
        added: 0,
        removed: 0,
        unparsed: patch,
        problem: "Hunk at line 3 contained invalid line ",
      },
    ]);
  });
});

describe("splitPatch", () => {
  it("cuts a git patch into one DiffFile per file", () => {
    const files = splitPatch(twoFileGitPatch);
    expect(files.map((file) => file.path)).toEqual(["src/app.ts", "README.md"]);
    expect(files[0]!.patch).toBe(
      twoFileGitPatch.slice(0, twoFileGitPatch.indexOf("diff --git a/README.md") - 1),
    );
    expect(files[1]!.patch).toBe(twoFileGitPatch.slice(twoFileGitPatch.indexOf("diff --git a/README.md")));
    expect(files.flatMap(parseDiffFile)).toEqual(parseDiffFile({ path: "", patch: twoFileGitPatch }));
  });

  it("cuts plain ---/+++ pairs and is not fooled by a removed line starting with --", () => {
    const patch = [
      "--- a/q.sql",
      "+++ b/q.sql",
      "@@ -1,2 +1,1 @@",
      "--- a comment",
      " select 1;",
      "--- a/r.txt",
      "+++ b/r.txt",
      "@@ -1 +1 @@",
      "-r",
      "+R",
    ].join("\n");
    expect(splitPatchSections(patch)).toEqual([
      "--- a/q.sql\n+++ b/q.sql\n@@ -1,2 +1,1 @@\n--- a comment\n select 1;",
      "--- a/r.txt\n+++ b/r.txt\n@@ -1 +1 @@\n-r\n+R",
    ]);
    expect(splitPatch(patch).map((file) => file.path)).toEqual(["q.sql", "r.txt"]);
  });

  it("keeps text before the first file with that file", () => {
    const patch = `commit abc\n\n    Message\n\n${twoFileGitPatch}`;
    const sections = splitPatchSections(patch);
    expect(sections).toHaveLength(2);
    expect(sections[0]!.startsWith("commit abc\n")).toBe(true);
  });

  it("gives nothing for an empty patch", () => {
    expect(splitPatch("")).toEqual([]);
    expect(splitPatch("\n")).toEqual([]);
  });
});

describe("summarizeDiff", () => {
  it("counts files and lines across texts and patches", () => {
    expect(
      summarizeDiff([
        { path: "a.txt", oldText: "1\n2\n", newText: "1\nTwo\n3\n" },
        { path: "", patch: twoFileGitPatch },
        { path: "b.txt", newText: "new\n" },
      ]),
    ).toEqual({ files: 4, added: 6, removed: 3 });
  });
});
