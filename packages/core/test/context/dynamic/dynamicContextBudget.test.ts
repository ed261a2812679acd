import type { EditorState } from "@lathe/protocol";
import { LatheError } from "@lathe/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  buildDynamicContext,
  type DynamicContextInputs,
} from "../../../src/context/dynamic/dynamicContext.js";
import type { CodeSearchIndex } from "../../../src/tools/toolServices.js";
import {
  type ContextTestBed,
  countTokens,
  createContextTestBed,
  dynamicInputs,
  numberedText,
} from "./contextTestBed.js";

let bed: ContextTestBed;
beforeEach(() => {
  bed = createContextTestBed();
});
afterEach(() => bed.cleanup());

const inputs = (overrides: Partial<DynamicContextInputs>) => dynamicInputs(bed, overrides);

const oneHitIndex = (calls: string[]): CodeSearchIndex => ({
  search: async (query) => {
    calls.push(query);
    return [{ path: "hit.ts", startLine: 1, endLine: 1, score: 1, snippet: "hit" }];
  },
});

/** Every source at once, each far larger than any budget below. */
function everything(): Partial<DynamicContextInputs> {
  for (const name of ["a", "b", "c", "d"]) bed.write(`${name}.ts`, numberedText(3000, name));
  for (const name of ["e1", "e2", "e3", "e4", "e5", "e6"]) bed.write(`${name}.ts`, numberedText(200, name));
  const editor: EditorState = {
    openFiles: ["a", "b", "c", "d"].map((name) => ({
      path: `${name}.ts`,
      cursor: { line: 1500, column: 1 },
    })),
    diagnostics: Array.from({ length: 40 }, (_, index) => ({
      path: "a.ts",
      line: index + 1,
      severity: "error" as const,
      message: `problem number ${index}`,
    })),
    terminalOutput: "x".repeat(10_000),
  };
  return {
    editor,
    recentEdits: ["e1.ts", "e2.ts", "e3.ts", "e4.ts", "e5.ts", "e6.ts"],
    query: "anything",
    codeSearch: oneHitIndex([]),
  };
}

describe("buildDynamicContext: budget", () => {
  it("gives one open file at most 30% of what is left", async () => {
    bed.write("a.ts", numberedText(3000));
    bed.write("b.ts", numberedText(3000));
    const editor: EditorState = { openFiles: [{ path: "a.ts" }, { path: "b.ts" }], diagnostics: [] };
    const result = await buildDynamicContext(inputs({ editor, budgetTokens: 10_000 }));
    const [first, second] = result.text.split("\n\n");
    expect(countTokens(first!)).toBeLessThanOrEqual(3000);
    expect(countTokens(first!)).toBeGreaterThan(2950);
    const left = 10_000 - countTokens(first!) - countTokens("\n\n");
    expect(countTokens(second!)).toBeLessThanOrEqual(Math.floor(left * 0.3));
    expect(countTokens(second!)).toBeGreaterThan(Math.floor(left * 0.3) - 50);
    expect(first).toMatch(
      /\n\[Lines \d+-3000 are not shown; read_file with offset=\d+ reads them\.\]\n<\/open_file>$/,
    );
  });

  it("never gives one open file more than 8,000 tokens", async () => {
    bed.write("huge.ts", numberedText(20_000));
    const editor: EditorState = { openFiles: [{ path: "huge.ts" }], diagnostics: [] };
    const result = await buildDynamicContext(inputs({ editor, budgetTokens: 1_000_000 }));
    expect(result.sources[0]).toMatchObject({ name: "open_files", items: 1 });
    expect(result.sources[0]!.tokens).toBeLessThanOrEqual(8000);
    expect(result.sources[0]!.tokens).toBeGreaterThan(7950);
  });

  it("adds search results only when more than 1,000 tokens are left", async () => {
    const calls: string[] = [];
    const atLimit = await buildDynamicContext(
      inputs({ budgetTokens: 1000, query: "q", codeSearch: oneHitIndex(calls) }),
    );
    expect(atLimit.text).toBe("");
    expect(calls).toEqual([]);

    const above = await buildDynamicContext(
      inputs({ budgetTokens: 1001, query: "q", codeSearch: oneHitIndex(calls) }),
    );
    expect(above.text).toBe(
      '<search_results>\n<result path="hit.ts" lines="1-1">\n     1|hit\n</result>\n</search_results>',
    );
    expect(calls).toEqual(["q"]);

    bed.write("open.ts", "x".repeat(4000));
    const editor: EditorState = { openFiles: [{ path: "open.ts" }], diagnostics: [] };
    const crowded = await buildDynamicContext(
      inputs({
        editor,
        budgetTokens: 1400,
        query: "q",
        codeSearch: oneHitIndex(calls),
        settings: { openFileShare: 1 },
      }),
    );
    expect(crowded.sources.map((source) => source.name)).toEqual(["open_files"]);
    expect(calls).toEqual(["q"]);
  });

  it("notes a failing search instead of failing the block", async () => {
    const failing: CodeSearchIndex = {
      search: async () => {
        throw new Error("index not built");
      },
    };
    const result = await buildDynamicContext(inputs({ query: "q", codeSearch: failing }));
    expect(result.text).toBe(
      "<context_notes>\n- Code search gave no results: index not built\n</context_notes>",
    );
  });

  it("stays within the budget whatever it is given", async () => {
    const all = everything();
    for (const budgetTokens of [0, 1, 10, 50, 200, 1000, 1500, 5000, 20_000, 60_000]) {
      const result = await buildDynamicContext(inputs({ ...all, budgetTokens }));
      expect(result.tokens).toBe(countTokens(result.text));
      expect(result.tokens).toBeLessThanOrEqual(budgetTokens);
      expect(result.sources.reduce((sum, source) => sum + source.tokens, 0)).toBeLessThanOrEqual(
        budgetTokens,
      );
    }
  });

  it("uses every source when the budget allows, each within its own limit", async () => {
    const result = await buildDynamicContext(inputs({ ...everything(), budgetTokens: 60_000 }));
    expect(result.sources.map((source) => [source.name, source.items])).toEqual([
      ["open_files", 3],
      ["cursor_context", 61],
      ["linter_errors", 20],
      ["terminal", 1],
      ["recent_edits", 5],
      ["search_results", 1],
    ]);
    expect(result.tokens).toBeLessThanOrEqual(60_000);
  });

  it("drops the lowest-priority sections when the whole counts more than its parts", async () => {
    // A tokenizer that charges extra for a joined block, as a real one may at section seams.
    const seams = (text: string) => countTokens(text) + (text.match(/\n\n</g)?.length ?? 0) * 40;
    const editor: EditorState = {
      openFiles: [{ path: "a.ts", content: "a\n" }],
      diagnostics: [],
      terminalOutput: "t",
    };
    const result = await buildDynamicContext(inputs({ editor, budgetTokens: 40, countTokens: seams }));
    expect(result.tokens).toBeLessThanOrEqual(40);
    expect(result.tokens).toBe(seams(result.text));
    expect(result.sources.map((source) => source.name)).toEqual(["open_files"]);
  });

  it("follows its settings", async () => {
    bed.write("a.ts", "a\n");
    bed.write("b.ts", "b\n");
    const editor: EditorState = { openFiles: [{ path: "a.ts" }, { path: "b.ts" }], diagnostics: [] };
    const result = await buildDynamicContext(
      inputs({ editor, terminalTail: "0123456789", settings: { maxOpenFiles: 1, terminalTailChars: 4 } }),
    );
    expect(result.text).toBe(
      '<open_file path="a.ts">\n     1|a\n</open_file>\n\n<terminal>\n[… earlier output not shown]\n6789\n</terminal>',
    );
  });

  it("is cancelled by its signal", async () => {
    const controller = new AbortController();
    controller.abort();
    const built = buildDynamicContext(inputs({ signal: controller.signal, terminalTail: "x" }));
    await expect(built).rejects.toBeInstanceOf(LatheError);
    await expect(built).rejects.toMatchObject({ code: "E_CANCELLED" });
  });
});
