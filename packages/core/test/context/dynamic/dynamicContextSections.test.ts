import path from "node:path";
import type { EditorState } from "@lathe/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  buildDynamicContext,
  type DynamicContextInputs,
} from "../../../src/context/dynamic/dynamicContext.js";
import { FileReadLedger } from "../../../src/tools/fileReadLedger.js";
import type { CodeSearchHit, CodeSearchIndex } from "../../../src/tools/toolServices.js";
import {
  type ContextTestBed,
  countTokens,
  createContextTestBed,
  dynamicInputs,
  numberedText,
  shownLines,
} from "./contextTestBed.js";

let bed: ContextTestBed;
beforeEach(() => {
  bed = createContextTestBed();
});
afterEach(() => bed.cleanup());

/** An index that answers with fixed hits and remembers what it was asked. */
function fakeIndex(hits: CodeSearchHit[]): CodeSearchIndex & { calls: { query: string; limit: number }[] } {
  const calls: { query: string; limit: number }[] = [];
  return {
    calls,
    search: async (query, options) => {
      calls.push({ query, limit: options.limit });
      return hits;
    },
  };
}

const inputs = (overrides: Partial<DynamicContextInputs>) => dynamicInputs(bed, overrides);

describe("buildDynamicContext: sections", () => {
  it("puts every source in its own tagged section, in priority order", async () => {
    bed.write("src/a.ts", "old text on disk\n");
    bed.write("notes.md", "# Notes\n");
    bed.write("src/b.ts", "export const b = 1;\n");
    const editor: EditorState = {
      openFiles: [
        { path: "notes.md" },
        { path: "src/a.ts", content: "alpha\nbeta\n", cursor: { line: 2, column: 1 } },
      ],
      activeFile: "src/a.ts",
      diagnostics: [
        {
          path: "src/a.ts",
          line: 2,
          column: 1,
          severity: "error",
          message: "beta is undefined",
          source: "tsc",
        },
      ],
      terminalOutput: "$ npm test\nfail\n",
    };
    const index = fakeIndex([
      {
        path: "src/c.ts",
        startLine: 3,
        endLine: 4,
        symbol: "c",
        kind: "function",
        score: 1,
        snippet: "function c() {\n}\n",
      },
    ]);
    const ledger = new FileReadLedger();

    const result = await buildDynamicContext(
      inputs({
        editor,
        lintProblems: [
          { path: "notes.md", line: 1, severity: "warning", message: "heading", source: "markdownlint" },
        ],
        recentEdits: ["src/b.ts"],
        query: "where is c",
        codeSearch: index,
        fileReads: ledger,
      }),
    );

    expect(result.text).toBe(
      [
        '<open_file path="src/a.ts" cursor="2:1">',
        "     1|alpha",
        "     2|beta",
        "</open_file>",
        "",
        '<open_file path="notes.md">',
        "     1|# Notes",
        "</open_file>",
        "",
        "<linter_errors>",
        "src/a.ts:2:1: error: beta is undefined (tsc)",
        "notes.md:1: warning: heading (markdownlint)",
        "</linter_errors>",
        "",
        "<terminal>",
        "$ npm test",
        "fail",
        "</terminal>",
        "",
        "<recent_edits>",
        '<file path="src/b.ts">',
        "     1|export const b = 1;",
        "</file>",
        "</recent_edits>",
        "",
        "<search_results>",
        '<result path="src/c.ts" lines="3-4" symbol="c" kind="function">',
        "     3|function c() {",
        "     4|}",
        "</result>",
        "</search_results>",
      ].join("\n"),
    );
    expect(result.tokens).toBe(countTokens(result.text));
    expect(result.sources.map(({ name, items }) => ({ name, items }))).toEqual([
      { name: "open_files", items: 2 },
      { name: "linter_errors", items: 2 },
      { name: "terminal", items: 1 },
      { name: "recent_edits", items: 1 },
      { name: "search_results", items: 1 },
    ]);
    expect(result.files).toEqual(["src/a.ts", "notes.md", "src/b.ts"]);
    expect(index.calls).toEqual([{ query: "where is c", limit: 10 }]);
    // Files shown whole from disk count as read; the unsaved buffer is not what is on disk.
    expect(ledger.hasRead(path.join(bed.root, "notes.md"))).toBe(true);
    expect(ledger.hasRead(path.join(bed.root, "src/b.ts"))).toBe(true);
    expect(ledger.hasRead(path.join(bed.root, "src/a.ts"))).toBe(false);
  });

  it("is empty with nothing to show", async () => {
    const result = await buildDynamicContext(inputs({}));
    expect(result).toEqual({ text: "", tokens: 0, sources: [], files: [] });
  });

  it("shows at most 3 open files, the active one first", async () => {
    const editor: EditorState = {
      openFiles: ["a", "b", "c", "d", "e"].map((name) => ({ path: `${name}.txt`, content: `${name}\n` })),
      activeFile: "d.txt",
      diagnostics: [],
    };
    const result = await buildDynamicContext(inputs({ editor }));
    expect(result.text.match(/<open_file path="[^"]+"/g)).toEqual([
      '<open_file path="d.txt"',
      '<open_file path="a.txt"',
      '<open_file path="b.txt"',
    ]);
    expect(result.files).toEqual(["d.txt", "a.txt", "b.txt"]);
  });

  it("shows exactly 30 lines on each side of the cursor when the active file is not shown whole", async () => {
    bed.write("big.ts", numberedText(100));
    const at = (line: number): EditorState => ({
      openFiles: [{ path: "big.ts", cursor: { line, column: 4 } }],
      diagnostics: [],
    });
    const settings = { maxOpenFileTokens: 40 };

    const middle = await buildDynamicContext(inputs({ editor: at(50), settings }));
    const cursor = middle.text.slice(middle.text.indexOf("<cursor_context"));
    expect(cursor).toBe(
      `<cursor_context path="big.ts" line="50" column="4">\n${shownLines(20, 80)}\n</cursor_context>`,
    );
    expect(middle.sources.find((source) => source.name === "cursor_context")?.items).toBe(61);

    const top = await buildDynamicContext(inputs({ editor: at(5), settings }));
    expect(top.text).toContain(
      `<cursor_context path="big.ts" line="5" column="4">\n${shownLines(1, 35)}\n</cursor_context>`,
    );
    const bottom = await buildDynamicContext(inputs({ editor: at(98), settings }));
    expect(bottom.text).toContain(
      `<cursor_context path="big.ts" line="98" column="4">\n${shownLines(68, 100)}\n</cursor_context>`,
    );
  });

  it("shows the selection with the cursor, and the cursor radius is a setting", async () => {
    bed.write("big.ts", numberedText(100));
    const editor: EditorState = {
      openFiles: [
        {
          path: "big.ts",
          cursor: { line: 50, column: 1 },
          selection: { start: { line: 49, column: 2 }, end: { line: 50, column: 1 } },
        },
      ],
      diagnostics: [],
    };
    const result = await buildDynamicContext(
      inputs({ editor, settings: { maxOpenFileTokens: 40, cursorRadiusLines: 2 } }),
    );
    expect(result.text).toContain(
      `<cursor_context path="big.ts" line="50" column="1" selection="49:2-50:1">\n${shownLines(48, 52)}\n</cursor_context>`,
    );
  });

  it("leaves the cursor section out when the whole active file is already shown", async () => {
    bed.write("small.ts", numberedText(10));
    const editor: EditorState = {
      openFiles: [{ path: "small.ts", cursor: { line: 5, column: 1 } }],
      diagnostics: [],
    };
    const result = await buildDynamicContext(inputs({ editor }));
    expect(result.text).toBe(`<open_file path="small.ts" cursor="5:1">\n${shownLines(1, 10)}\n</open_file>`);
  });

  it("shows at most 20 lint problems, errors first and the active file's first, each once", async () => {
    const editor: EditorState = {
      openFiles: [{ path: "z.ts", content: "z\n" }],
      activeFile: "z.ts",
      diagnostics: [
        { path: "a.ts", line: 1, severity: "error", message: "editor and checker both say so" },
        { path: "z.ts", line: 9, column: 2, severity: "warning", message: "active warning" },
      ],
    };
    const lintProblems = [
      { path: "a.ts", line: 1, severity: "error", message: "editor and checker both say so", source: "tsc" },
      ...Array.from({ length: 22 }, (_, index) => ({
        path: "m.ts",
        line: index + 1,
        severity: index % 2 === 0 ? "warning" : "error",
        message: `problem ${index + 1}`,
      })),
      { path: "z.ts", line: 30, severity: "error", message: "active error", code: "TS1" },
    ];
    const result = await buildDynamicContext(inputs({ editor, lintProblems }));
    const section = result.text.slice(result.text.indexOf("<linter_errors>"));
    const lines = section.split("\n");
    expect(lines.slice(0, 4)).toEqual([
      "<linter_errors>",
      "z.ts:30: error TS1: active error",
      "a.ts:1: error: editor and checker both say so",
      "m.ts:2: error: problem 2",
    ]);
    expect(lines.slice(13, 16)).toEqual([
      "m.ts:22: error: problem 22",
      "z.ts:9:2: warning: active warning",
      "m.ts:1: warning: problem 1",
    ]);
    expect(lines.slice(20)).toEqual([
      "m.ts:11: warning: problem 11",
      "… 5 more problems not shown.",
      "</linter_errors>",
    ]);
    expect(result.sources.find((source) => source.name === "linter_errors")?.items).toBe(20);
  });

  it("adds the session's known problems for the open and recently edited files", async () => {
    bed.write("src/edited.ts", "x\n");
    const baseline = new Map([
      [
        "src/edited.ts",
        [
          {
            file: "src/edited.ts",
            line: 1,
            column: 1,
            severity: "error" as const,
            message: "bad",
            source: "tsc",
            code: "TS2",
          },
        ],
      ],
      [
        "src/other.ts",
        [
          {
            file: "src/other.ts",
            line: 1,
            column: 1,
            severity: "error" as const,
            message: "unrelated",
            source: "tsc",
          },
        ],
      ],
    ]);
    const result = await buildDynamicContext(
      inputs({ recentEdits: ["./src/edited.ts"], lintBaseline: { get: (file) => baseline.get(file) } }),
    );
    expect(result.text).toContain(
      "<linter_errors>\nsrc/edited.ts:1:1: error TS2: bad (tsc)\n</linter_errors>",
    );
    expect(result.text).not.toContain("unrelated");
  });

  it("keeps the last 2,000 characters of terminal output, the editor's before the background one", async () => {
    const output = Array.from({ length: 300 }, (_, index) => `output line ${index}`).join("\n");
    const result = await buildDynamicContext(inputs({ terminalTail: output }));
    expect(result.text).toBe(`<terminal>\n[… earlier output not shown]\n${output.slice(-2000)}\n</terminal>`);

    const editor: EditorState = { openFiles: [], diagnostics: [], terminalOutput: "editor terminal" };
    const fromEditor = await buildDynamicContext(inputs({ editor, terminalTail: output }));
    expect(fromEditor.text).toBe("<terminal>\neditor terminal\n</terminal>");
  });

  it("shows at most 5 recently edited files of 50 lines each, around the change when its line is known", async () => {
    for (const name of ["a", "b", "c", "d", "e", "f"]) bed.write(`${name}.ts`, numberedText(80));
    bed.write("shown.ts", "already open\n");
    const editor: EditorState = { openFiles: [{ path: "shown.ts" }], diagnostics: [] };
    const result = await buildDynamicContext(
      inputs({
        editor,
        recentEdits: [
          "shown.ts",
          { path: "a.ts", line: 60 },
          "gone.ts",
          "b.ts",
          { path: "c.ts", line: 3 },
          "d.ts",
          "e.ts",
          "f.ts",
        ],
      }),
    );
    const section = result.text.slice(result.text.indexOf("<recent_edits>"));
    expect(section).toBe(
      [
        "<recent_edits>",
        '<file path="a.ts" lines="31-80 of 80">',
        shownLines(31, 80),
        "</file>",
        '<file path="gone.ts">',
        "[deleted since it was edited]",
        "</file>",
        '<file path="b.ts" lines="1-50 of 80">',
        shownLines(1, 50),
        "</file>",
        '<file path="c.ts" lines="1-50 of 80">',
        shownLines(1, 50),
        "</file>",
        '<file path="d.ts" lines="1-50 of 80">',
        shownLines(1, 50),
        "</file>",
        "</recent_edits>",
      ].join("\n"),
    );
    expect(result.files).toEqual(["shown.ts", "a.ts", "b.ts", "c.ts", "d.ts"]);
  });

  it("centres the edited region on the changed line", async () => {
    bed.write("long.ts", numberedText(200));
    const result = await buildDynamicContext(inputs({ recentEdits: [{ path: "long.ts", line: 100 }] }));
    expect(result.text).toBe(
      `<recent_edits>\n<file path="long.ts" lines="76-125 of 200">\n${shownLines(76, 125)}\n</file>\n</recent_edits>`,
    );
  });
});
