import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CodeIndex } from "../../src/codeIntel/index.js";
import { SessionStore } from "../../src/store/sessionStore.js";
import { codebaseSearchTool } from "../../src/tools/builtin/codebaseSearch/codebaseSearch.js";
import type { CodeSearchHit, CodeSearchIndex } from "../../src/tools/toolServices.js";
import { createToolTestBed, errorOf, outputOf, type ToolTestBed } from "./toolTestContext.js";

let bed: ToolTestBed;
beforeEach(() => {
  bed = createToolTestBed();
});
afterEach(() => bed.cleanup());

/** An index that answers with fixed hits and remembers what it was asked. */
function fakeIndex(hits: CodeSearchHit[] | Error) {
  const calls: { query: string; options: { limit: number; paths?: readonly string[] } }[] = [];
  const index: CodeSearchIndex = {
    async search(query, options) {
      calls.push({ query, options });
      if (hits instanceof Error) throw hits;
      return hits;
    },
  };
  return { index, calls };
}

const run = (
  args: { query: string; target_directories?: string[]; limit?: number },
  codeSearch?: CodeSearchIndex,
) => codebaseSearchTool.execute(args, { ...bed.context(), ...(codeSearch ? { codeSearch } : {}) });

const numbered = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => `line ${from + i}`).join("\n");

describe("codebase_search", () => {
  it("says the index is missing and points to search_files", async () => {
    const error = errorOf(await run({ query: "anything" }));
    expect(error.code).toBe("E_TOOL_EXECUTION");
    expect(error.message).toBe("the code index is not available; use search_files");
  });

  it("shows each hit as path:start-end, symbol and kind, then at most 12 numbered lines", async () => {
    const { index, calls } = fakeIndex([
      {
        path: "src/a.ts",
        startLine: 10,
        endLine: 30,
        symbol: "parse",
        kind: "function",
        score: 3,
        snippet: numbered(10, 21),
      },
      { path: "README.md", startLine: 1, endLine: 2, score: 1, snippet: "# Title\r\nText" },
    ]);
    const output = outputOf(await run({ query: "parse input" }, index));
    expect(output).toBe(
      [
        "src/a.ts:10-30  parse (function)",
        ...Array.from({ length: 12 }, (_, i) => `${String(10 + i).padStart(6)}|line ${10 + i}`),
        "      [9 more lines]",
        "",
        "README.md:1-2",
        "     1|# Title",
        "     2|Text",
      ].join("\n"),
    );
    expect(calls).toEqual([{ query: "parse input", options: { limit: 10 } }]);
  });

  it("cuts very long lines", async () => {
    const { index } = fakeIndex([
      { path: "min.js", startLine: 1, endLine: 1, score: 1, snippet: "x".repeat(500) },
    ]);
    const output = outputOf(await run({ query: "x" }, index));
    expect(output.split("\n")[1]).toBe(`     1|${"x".repeat(200)}…`);
  });

  it("passes the limit and the guarded paths, relative to the project root", async () => {
    bed.write("src/a.ts", "");
    bed.write("lib/b.ts", "");
    const { index, calls } = fakeIndex([]);
    const output = outputOf(
      await run(
        { query: "q", target_directories: ["src", path.join(bed.projectRoot, "lib/b.ts")], limit: 3 },
        index,
      ),
    );
    expect(calls[0]?.options).toEqual({ limit: 3, paths: ["src", "lib/b.ts"] });
    expect(output).toBe(
      'No indexed code matches "q" in src, lib/b.ts. Try other words, or search_files for exact text.',
    );
  });

  it("refuses paths outside the project and reports missing ones", async () => {
    const { index, calls } = fakeIndex([]);
    expect(errorOf(await run({ query: "q", target_directories: ["../outside"] }, index)).code).toBe(
      "E_PATH_TRAVERSAL",
    );
    expect(errorOf(await run({ query: "q", target_directories: ["nowhere"] }, index)).code).toBe(
      "E_FILE_NOT_FOUND",
    );
    expect(calls).toEqual([]);
  });

  it("reports a failing index as a tool error", async () => {
    const { index } = fakeIndex(new Error("database is locked"));
    const error = errorOf(await run({ query: "q" }, index));
    expect(error).toMatchObject({
      code: "E_TOOL_EXECUTION",
      message: "The code search failed: database is locked",
    });
  });

  it("accepts limits from 1 to 30 only", () => {
    expect(codebaseSearchTool.schema.safeParse({ query: "q", limit: 30 }).success).toBe(true);
    expect(codebaseSearchTool.schema.safeParse({ query: "q", limit: 31 }).success).toBe(false);
    expect(codebaseSearchTool.schema.safeParse({ query: "q", limit: 0 }).success).toBe(false);
    expect(codebaseSearchTool.schema.safeParse({ query: "" }).success).toBe(false);
    expect(codebaseSearchTool.kind).toBe("search");
    expect(codebaseSearchTool.risk({ query: "q" }, { projectRoot: bed.projectRoot })).toBe("safe");
  });

  it("searches a real code index", async () => {
    bed.write(
      "src/retry.ts",
      "/** Waits longer after each failure. */\nexport function backoffDelay(attempt: number) {\n  return 2 ** attempt;\n}\n",
    );
    const opened = SessionStore.open(path.join(bed.latheHome, "lathe.db"));
    if (!opened.ok) throw new Error(opened.error.message);
    try {
      const index = CodeIndex.open({ db: opened.value.db, projectRoot: bed.projectRoot });
      await index.refresh();
      const output = outputOf(await run({ query: "wait longer after a failure" }, index));
      expect(output.split("\n").slice(0, 3)).toEqual([
        "src/retry.ts:1-4  backoffDelay (function)",
        "     1|/** Waits longer after each failure. */",
        "     2|export function backoffDelay(attempt: number) {",
      ]);
    } finally {
      opened.value.close();
    }
  });
});
