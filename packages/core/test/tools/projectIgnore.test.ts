import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ProjectIgnore } from "../../src/tools/projectIgnore/projectIgnore.js";
import { scopeIgnorePatterns } from "../../src/tools/projectIgnore/scopedPatterns.js";
import { createToolTestBed, type ToolTestBed } from "./toolTestContext.js";

let bed: ToolTestBed;
beforeEach(() => {
  bed = createToolTestBed();
});
afterEach(() => bed.cleanup());

const put = (relative: string, contents: string) => {
  const absolute = path.join(bed.projectRoot, relative);
  mkdirSync(path.dirname(absolute), { recursive: true });
  writeFileSync(absolute, contents);
};

/** Which of `paths` are ignored; a trailing `/` marks a directory. */
async function ignoredAmong(paths: readonly string[]): Promise<string[]> {
  const rules = new ProjectIgnore(bed.projectRoot);
  const ignored: string[] = [];
  for (const candidate of paths) {
    const isDirectory = candidate.endsWith("/");
    if (await rules.isIgnored(isDirectory ? candidate.slice(0, -1) : candidate, isDirectory))
      ignored.push(candidate);
  }
  return ignored;
}

describe("ProjectIgnore", () => {
  it("hides the built-in names at any depth, directories only where they are directory names", async () => {
    expect(
      await ignoredAmong([
        "node_modules/",
        "node_modules/zod/index.js",
        "packages/core/node_modules/",
        ".git/",
        ".git",
        "dist/",
        "build/",
        "build",
        "scripts/build",
        "src/.DS_Store",
        "__pycache__/",
        "target/",
        "src/index.ts",
        ".",
        "",
      ]),
    ).toEqual([
      "node_modules/",
      "node_modules/zod/index.js",
      "packages/core/node_modules/",
      ".git/",
      ".git",
      "dist/",
      "build/",
      "src/.DS_Store",
      "__pycache__/",
      "target/",
    ]);
  });

  it("applies the root .gitignore with git's semantics", async () => {
    put(".gitignore", "# comment\n*.log\n!keep.log\n/root-only.txt\ntmp/\ndocs/*.draft\n");
    expect(
      await ignoredAmong([
        "a.log",
        "deep/b.log",
        "keep.log",
        "root-only.txt",
        "sub/root-only.txt",
        "tmp/",
        "tmp/x.txt",
        "tmp",
        "docs/a.draft",
        "docs/sub/a.draft",
        "src/main.ts",
      ]),
    ).toEqual(["a.log", "deep/b.log", "root-only.txt", "tmp/", "tmp/x.txt", "docs/a.draft"]);
  });

  it("applies nested .gitignore files relative to their own directory, deeper ones winning", async () => {
    put(".gitignore", "*.gen.ts\ngenerated/\n");
    put("pkg/.gitignore", "/local.txt\ncache\n!keep.gen.ts\n!generated/\n");
    put("pkg/sub/.gitignore", "*.md\n");
    expect(
      await ignoredAmong([
        "local.txt",
        "pkg/local.txt",
        "pkg/sub/local.txt",
        "pkg/cache",
        "pkg/sub/cache/",
        "cache",
        "a.gen.ts",
        "pkg/keep.gen.ts",
        "pkg/deep/keep.gen.ts",
        "other/keep.gen.ts",
        "generated/x.ts",
        "pkg/generated/x.ts",
        "pkg/sub/readme.md",
        "pkg/readme.md",
      ]),
    ).toEqual([
      "pkg/local.txt",
      "pkg/cache",
      "pkg/sub/cache/",
      "a.gen.ts",
      "other/keep.gen.ts",
      "generated/x.ts",
      "pkg/sub/readme.md",
    ]);
  });

  it("cannot re-include a file inside an ignored directory, as in git", async () => {
    put(".gitignore", "vendor/\n!vendor/keep.txt\n");
    expect(await ignoredAmong(["vendor/keep.txt", "vendor/other.txt"])).toEqual([
      "vendor/keep.txt",
      "vendor/other.txt",
    ]);
  });

  it("reads .latheignore and .git/info/exclude too", async () => {
    put(".latheignore", "secrets/\n");
    put(".git/info/exclude", "local-notes.md\n");
    put("src/.latheignore", "fixtures/\n");
    expect(
      await ignoredAmong(["secrets/a", "local-notes.md", "src/fixtures/", "fixtures/", "src/a.ts"]),
    ).toEqual(["secrets/a", "local-notes.md", "src/fixtures/"]);
  });

  it("does not let a negation re-include a built-in name", async () => {
    put(".gitignore", "!node_modules/\n");
    expect(await ignoredAmong(["node_modules/a.js"])).toEqual(["node_modules/a.js"]);
  });
});

describe("scopeIgnorePatterns", () => {
  it("anchors patterns with a slash to the directory and lets the others match below it", () => {
    expect(
      scopeIgnorePatterns("# c\n\nfoo\n/bar\nbaz/\na/b\n**/deep\n!keep\ntrail   \nesc\\ \n", "src/[x]"),
    ).toEqual([
      "src/\\[x\\]/**/foo",
      "src/\\[x\\]/bar",
      "src/\\[x\\]/**/baz/",
      "src/\\[x\\]/a/b",
      "src/\\[x\\]/**/deep",
      "!src/\\[x\\]/**/keep",
      "src/\\[x\\]/**/trail",
      "src/\\[x\\]/**/esc\\ ",
    ]);
  });

  it("leaves root patterns as written and escapes a leading ! or # of a directory", () => {
    expect(scopeIgnorePatterns("a\r\n/b\n", "")).toEqual(["a", "/b", ""]);
    expect(scopeIgnorePatterns("x\n", "!weird")).toEqual(["\\!weird/**/x"]);
  });
});
