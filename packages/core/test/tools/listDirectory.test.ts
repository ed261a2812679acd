import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listDirectoryTool } from "../../src/tools/builtin/listDirectory/listDirectory.js";
import { ToolRegistry } from "../../src/tools/toolRegistry.js";
import { createToolTestBed, errorOf, outputOf, type ToolTestBed } from "./toolTestContext.js";

let bed: ToolTestBed;
beforeEach(() => {
  bed = createToolTestBed();
});
afterEach(() => bed.cleanup());

const put = (relative: string, contents = "") => {
  const absolute = path.join(bed.projectRoot, relative);
  mkdirSync(path.dirname(absolute), { recursive: true });
  writeFileSync(absolute, contents);
};
const list = (args: { path?: string; depth?: number; ignore?: string[] } = {}) =>
  listDirectoryTool.execute(args, bed.context());

describe("list_directory", () => {
  it("shows directories first, then files with sizes, sorted by name, two levels deep", async () => {
    put("zeta.txt", "z".repeat(2048));
    put("alpha.md", "hello");
    put("src/index.ts", "x".repeat(1536));
    put("src/lib/deep.ts", "not shown at depth 2");
    put("docs/guide.md", "");
    expect(outputOf(await list())).toBe(
      [
        "./",
        "  docs/",
        "    guide.md (0 B)",
        "  src/",
        "    lib/",
        "    index.ts (1.5 KB)",
        "  alpha.md (5 B)",
        "  zeta.txt (2.0 KB)",
      ].join("\n"),
    );
  });

  it("goes as deep as asked, and lists a subdirectory", async () => {
    put("a/b/c/d/e.txt", "e");
    expect(outputOf(await list({ depth: 1 }))).toBe("./\n  a/");
    expect(outputOf(await list({ path: "a/b", depth: 5 }))).toBe("a/b/\n  c/\n    d/\n      e.txt (1 B)");
  });

  it("honours .gitignore files, nested ones included, and says how many entries were hidden", async () => {
    put(".gitignore", "*.log\nsecret/\n");
    put("app.log", "");
    put("secret/key.txt", "");
    put("src/.gitignore", "generated.ts\n");
    put("src/generated.ts", "");
    put("src/main.ts", "");
    put("lib/generated.ts", "");
    expect(outputOf(await list())).toBe(
      [
        "./",
        "  lib/",
        "    generated.ts (0 B)",
        "  src/",
        "    .gitignore (13 B)",
        "    main.ts (0 B)",
        "  .gitignore (14 B)",
        "[3 ignored entries not shown (.gitignore, .latheignore, built-in ignores such as node_modules and .git, and your ignore patterns).]",
      ].join("\n"),
    );
  });

  it("hides node_modules and .git but lists inside them when named", async () => {
    put("node_modules/zod/package.json", "{}");
    put(".git/HEAD", "ref");
    put("index.js", "");
    expect(outputOf(await list())).toBe(
      [
        "./",
        "  index.js (0 B)",
        "[2 ignored entries not shown (.gitignore, .latheignore, built-in ignores such as node_modules and .git, and your ignore patterns).]",
      ].join("\n"),
    );
    expect(outputOf(await list({ path: "node_modules" }))).toBe(
      [
        "node_modules/",
        "  zod/",
        "    package.json (2 B)",
        "[node_modules is ignored by the project's ignore rules; it is listed because you named it.]",
      ].join("\n"),
    );
  });

  it("hides entries matching the extra ignore patterns, relative to the listed directory", async () => {
    put("src/a.test.ts", "");
    put("src/a.ts", "");
    put("src/fixtures/big.json", "");
    const output = outputOf(await list({ path: "src", ignore: ["*.test.ts", "fixtures/"] }));
    expect(output.split("\n").slice(0, 2)).toEqual(["src/", "  a.ts (0 B)"]);
  });

  it("caps at 500 entries, filling level by level, and says how to narrow", async () => {
    for (let index = 0; index < 3; index++) put(`dir${index}/keep.txt`, "");
    for (let index = 0; index < 600; index++) put(`dir0/many/file${String(index).padStart(3, "0")}.txt`, "");
    const result = await list({ depth: 3 });
    const lines = outputOf(result).split("\n");
    expect(lines.slice(0, 4)).toEqual(["./", "  dir0/", "    many/", "      file000.txt (0 B)"]);
    // 3 top-level directories, many/ and the 3 keep.txt come first: 493 of the 600 files fit.
    expect(lines.filter((line) => line.startsWith("      file"))).toHaveLength(493);
    expect(lines.slice(-7)).toEqual([
      "      … 107 more not shown",
      "    keep.txt (0 B)",
      "  dir1/",
      "    keep.txt (0 B)",
      "  dir2/",
      "    keep.txt (0 B)",
      "[Showing 500 of 607 entries, level by level to depth 3. To see the rest, list a subdirectory with path, lower depth, or hide entries with ignore patterns.]",
    ]);
    expect(result.ok && result.metadata).toEqual({
      path: ".",
      depth: 3,
      entries: 607,
      shown: 500,
      complete: true,
      ignored: 0,
    });
  });

  it("shows symbolic links without following them, marking those that leave the project", async () => {
    put("real/inside.txt", "");
    symlinkSync(bed.outside, path.join(bed.projectRoot, "out-link"));
    symlinkSync("real", path.join(bed.projectRoot, "in-link"));
    symlinkSync("nowhere", path.join(bed.projectRoot, "broken"));
    writeFileSync(path.join(bed.outside, "secret.txt"), "s");
    expect(outputOf(await list())).toBe(
      [
        "./",
        "  real/",
        "    inside.txt (0 B)",
        "  broken -> nowhere [broken link]",
        "  in-link -> real",
        `  out-link -> ${bed.outside} [outside the project, not followed]`,
      ].join("\n"),
    );
    expect(errorOf(await list({ path: "out-link" })).code).toBe("E_PATH_TRAVERSAL");
  });

  it("says when a directory is empty", async () => {
    mkdirSync(path.join(bed.projectRoot, "empty"));
    expect(outputOf(await list({ path: "empty" }))).toBe("empty/\n  (empty)");
  });

  it("refuses files, missing paths, paths outside the project and NUL bytes", async () => {
    put("file.txt", "");
    expect(errorOf(await list({ path: "file.txt" })).code).toBe("E_INVALID_ARGS");
    const missing = errorOf(await list({ path: "fil" }));
    expect(missing.code).toBe("E_FILE_NOT_FOUND");
    expect(missing.message).toBe("File not found: fil. Did you mean: file.txt?");
    expect(errorOf(await list({ path: "../outside" })).code).toBe("E_PATH_TRAVERSAL");
    expect(errorOf(await list({ path: "/" })).code).toBe("E_PATH_TRAVERSAL");
    expect(errorOf(await list({ path: "a\0b" })).code).toBe("E_SECURITY_BLOCKED");
    expect(readdirSync(bed.projectRoot)).toEqual(["file.txt"]);
  });

  it("answers missing, wrong-typed and absurd arguments with E_INVALID_ARGS", () => {
    const registry = new ToolRegistry([listDirectoryTool]);
    for (const raw of [
      '{"depth": 0}',
      '{"depth": 6}',
      '{"depth": 2.5}',
      '{"depth": "2"}',
      '{"path": 3}',
      '{"path": ""}',
      '{"ignore": "*.log"}',
      '{"ignore": [""]}',
      JSON.stringify({ ignore: Array.from({ length: 101 }, () => "x") }),
    ]) {
      const result = registry.validate("list_directory", raw);
      expect(result.ok || result.error.code).toBe("E_INVALID_ARGS");
    }
    expect(registry.validate("list_directory", "{}").ok).toBe(true);
    expect(listDirectoryTool.kind).toBe("read");
    expect(listDirectoryTool.risk({}, { projectRoot: bed.projectRoot })).toBe("safe");
  });
});
