import { mkdirSync, readdirSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { globSearchTool } from "../../src/tools/builtin/globSearch/globSearch.js";
import { ToolRegistry } from "../../src/tools/toolRegistry.js";
import { createToolTestBed, errorOf, outputOf, type ToolTestBed } from "./toolTestContext.js";

let bed: ToolTestBed;
beforeEach(() => {
  bed = createToolTestBed();
});
afterEach(() => bed.cleanup());

/** Files get increasing modification times in the order they are put, so "newest first" is known. */
let clock = 1_700_000_000;
const put = (relative: string, contents = "") => {
  const absolute = path.join(bed.projectRoot, relative);
  mkdirSync(path.dirname(absolute), { recursive: true });
  writeFileSync(absolute, contents);
  clock += 10;
  utimesSync(absolute, clock, clock);
};
const search = (args: { pattern: string; path?: string }) => globSearchTool.execute(args, bed.context());

describe("glob_search", () => {
  it("finds files at any depth with **, newest first, as paths from the project root", async () => {
    put("src/a.ts");
    put("src/deep/er/b.ts");
    put("index.ts");
    put("readme.md");
    put(".config/c.ts");
    expect(outputOf(await search({ pattern: "**/*.ts" }))).toBe(
      [".config/c.ts", "index.ts", "src/deep/er/b.ts", "src/a.ts"].join("\n"),
    );
  });

  it("orders by modification time, newest first, whatever the names", async () => {
    put("z-old.txt");
    put("a-mid.txt");
    put("m-new.txt");
    expect(outputOf(await search({ pattern: "*.txt" }))).toBe("m-new.txt\na-mid.txt\nz-old.txt");
    const now = clock + 1000;
    utimesSync(path.join(bed.projectRoot, "z-old.txt"), now, now);
    expect(outputOf(await search({ pattern: "*.txt" }))).toBe("z-old.txt\nm-new.txt\na-mid.txt");
  });

  it("searches inside path and keeps paths relative to the project root", async () => {
    put("packages/core/src/x.ts");
    put("packages/cli/src/y.ts");
    expect(outputOf(await search({ pattern: "src/*.ts", path: "packages/core" }))).toBe(
      "packages/core/src/x.ts",
    );
    expect(outputOf(await search({ pattern: "packages/*/src/*.{ts,js}" }))).toBe(
      "packages/cli/src/y.ts\npackages/core/src/x.ts",
    );
  });

  it("accepts an absolute pattern inside the project", async () => {
    put("lib/one.js");
    expect(outputOf(await search({ pattern: path.join(bed.projectRoot, "lib", "*.js") }))).toBe("lib/one.js");
    expect(outputOf(await search({ pattern: path.join(bed.projectRoot, "lib", "one.js") }))).toBe(
      "lib/one.js",
    );
  });

  it("caps at 100 results, newest first, and gives the total", async () => {
    for (let index = 0; index < 130; index++) put(`gen/file${String(index).padStart(3, "0")}.txt`);
    const result = await search({ pattern: "gen/*.txt" });
    const lines = outputOf(result).split("\n");
    expect(lines).toHaveLength(101);
    expect(lines[0]).toBe("gen/file129.txt");
    expect(lines[99]).toBe("gen/file030.txt");
    expect(lines[100]).toBe(
      "[Showing the 100 most recently modified of 130 matching files. Narrow the pattern or path to see the others.]",
    );
    expect(result.ok && result.metadata).toEqual({ total: 130, shown: 100 });
  });

  it("skips ignored files (.gitignore, nested too, node_modules, .git) unless an ignored directory is the path", async () => {
    put(".gitignore", "*.gen.ts\ncoverage-report/\n");
    put("pkg/.gitignore", "local.ts\n");
    put("src/kept.ts");
    put("src/skip.gen.ts");
    put("pkg/local.ts");
    put("pkg/shared.ts");
    put("coverage-report/x.ts");
    put("node_modules/lib/index.ts");
    put(".git/hooks/h.ts");
    put("dist/out.ts");
    expect(outputOf(await search({ pattern: "**/*.ts" }))).toBe("pkg/shared.ts\nsrc/kept.ts");
    expect(outputOf(await search({ pattern: "**/*.ts", path: "node_modules" }))).toBe(
      "node_modules/lib/index.ts",
    );
    expect(outputOf(await search({ pattern: "node_modules/lib/*.ts" }))).toBe("node_modules/lib/index.ts");
    expect(outputOf(await search({ pattern: "*.ts", path: "coverage-report" }))).toBe("coverage-report/x.ts");
  });

  it("says when nothing matches", async () => {
    put("a.md");
    const result = await search({ pattern: "**/*.rs" });
    expect(outputOf(result)).toBe(
      "No files match **/*.rs in the project. Ignored files (.gitignore, .latheignore, node_modules, .git, build output) are not searched; pass an ignored directory as path to search inside it.",
    );
    expect(outputOf(await search({ pattern: "missing-dir/**/*.md" }))).toContain(
      "No files match missing-dir/**/*.md",
    );
  });

  it("refuses patterns and paths that leave the project", async () => {
    writeFileSync(path.join(bed.outside, "secret.txt"), "s");
    symlinkSync(bed.outside, path.join(bed.projectRoot, "escape"));
    for (const pattern of ["../*", "../outside/*.txt", "src/../../*", "a/../b/*.ts"]) {
      const error = errorOf(await search({ pattern }));
      expect(error.code).toBe("E_PATH_TRAVERSAL");
    }
    expect(errorOf(await search({ pattern: path.join(bed.outside, "*.txt") })).code).toBe("E_PATH_TRAVERSAL");
    expect(errorOf(await search({ pattern: "/*" })).code).toBe("E_PATH_TRAVERSAL");
    expect(errorOf(await search({ pattern: "escape/*.txt" })).code).toBe("E_PATH_TRAVERSAL");
    expect(errorOf(await search({ pattern: "*.txt", path: "escape" })).code).toBe("E_PATH_TRAVERSAL");
    expect(errorOf(await search({ pattern: "*.txt", path: "../outside" })).code).toBe("E_PATH_TRAVERSAL");
    // Links are not followed while crawling, so nothing behind them is found either.
    expect(outputOf(await search({ pattern: "**/*.txt" }))).toContain("No files match");
    expect(outputOf(await search({ pattern: "{..,x}/*.txt" }))).toContain("No files match");
  });

  it("refuses NUL bytes, negated patterns, a file as path and a missing path", async () => {
    put("file.txt");
    expect(errorOf(await search({ pattern: "*.txt\0" })).code).toBe("E_SECURITY_BLOCKED");
    expect(errorOf(await search({ pattern: "*.txt", path: "a\0" })).code).toBe("E_SECURITY_BLOCKED");
    expect(errorOf(await search({ pattern: "!*.txt" })).code).toBe("E_INVALID_ARGS");
    expect(errorOf(await search({ pattern: "*", path: "file.txt" })).code).toBe("E_INVALID_ARGS");
    const missing = errorOf(await search({ pattern: "*", path: "nope" }));
    expect(missing.code).toBe("E_FILE_NOT_FOUND");
    expect(readdirSync(bed.projectRoot)).toEqual(["file.txt"]);
  });

  it("answers missing, wrong-typed and absurd arguments with E_INVALID_ARGS", () => {
    const registry = new ToolRegistry([globSearchTool]);
    for (const raw of [
      "{}",
      '{"pattern": ""}',
      '{"pattern": 5}',
      '{"pattern": ["*.ts"]}',
      '{"pattern": "*.ts", "path": ""}',
      '{"pattern": "*.ts", "path": false}',
      JSON.stringify({ pattern: "*".repeat(1001) }),
    ]) {
      const result = registry.validate("glob_search", raw);
      expect(result.ok || result.error.code).toBe("E_INVALID_ARGS");
    }
    expect(globSearchTool.kind).toBe("search");
    expect(globSearchTool.risk({ pattern: "*" }, { projectRoot: bed.projectRoot })).toBe("safe");
  });
});
