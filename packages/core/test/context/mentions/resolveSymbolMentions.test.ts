import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveMentions } from "../../../src/context/mentions/resolveMentions.js";
import type { CodeSearchHit, CodeSearchIndex } from "../../../src/tools/toolServices.js";
import { type ContextTestBed, createContextTestBed } from "../dynamic/contextTestBed.js";
import { mention, sourcesFor } from "./mentionTestBed.js";

let bed: ContextTestBed;
beforeEach(() => {
  bed = createContextTestBed();
});
afterEach(() => bed.cleanup());

const hit = (symbol: string, path: string, startLine: number, snippet: string): CodeSearchHit => ({
  path,
  startLine,
  endLine: startLine + snippet.split("\n").length - 1,
  symbol,
  kind: "function",
  score: 1,
  snippet,
});

describe("@symbol", () => {
  it("takes definitions from the code index when it has them", async () => {
    const asked: string[] = [];
    const codeSearch: CodeSearchIndex = {
      search: async (query) => {
        asked.push(query);
        return [
          hit("other", "src/other.ts", 1, "function other() {}"),
          hit("parseThing", "src/parse.ts", 10, "function parseThing() {\n  return 1;\n}"),
          hit("Parser.parseThing", "src/parser.ts", 4, "parseThing() {}"),
        ];
      },
    };
    const result = await resolveMentions(
      [mention("symbol", "parseThing")],
      sourcesFor(bed.root, { codeSearch }),
    );
    expect(asked).toEqual(["parseThing"]);
    expect(result.attachments.map((attachment) => [attachment.title, attachment.text])).toEqual([
      [
        "symbol parseThing",
        "src/parse.ts:10-12 (function)\n    10|function parseThing() {\n    11|  return 1;\n    12|}\n\n" +
          "src/parser.ts:4-4 (function)\n     4|parseThing() {}",
      ],
    ]);
  });

  it("scans the files when there is no index, or the index knows nothing by that name", async () => {
    bed.write("src/widget.ts", "import x from 'y';\n\nexport class Widget {\n  size = 1;\n}\n");
    bed.write("py/widget.py", "def helper():\n    pass\n\nWidget = make_widget()\n");
    bed.write("src/use.ts", "const w = new Widget();\nif (Widget == null) {}\n");
    bed.write("node_modules/lib/index.js", "class Widget {}\n");
    bed.write(".env", "class Widget\n");
    const expected = [
      [
        "symbol Widget",
        "py/widget.py:4\n     4|Widget = make_widget()\n\nsrc/widget.ts:3\n     3|export class Widget {\n     4|  size = 1;\n     5|}",
      ],
    ];

    const scanned = await resolveMentions([mention("symbol", "Widget")], sourcesFor(bed.root));
    expect(scanned.attachments.map((attachment) => [attachment.title, attachment.text])).toEqual(expected);

    const emptyIndex: CodeSearchIndex = { search: async () => [hit("Other", "x.ts", 1, "x")] };
    const fallback = await resolveMentions(
      [mention("symbol", "Widget")],
      sourcesFor(bed.root, { codeSearch: emptyIndex }),
    );
    expect(fallback.attachments.map((attachment) => [attachment.title, attachment.text])).toEqual(expected);

    const brokenIndex: CodeSearchIndex = {
      search: async () => {
        throw new Error("index is still building");
      },
    };
    const afterError = await resolveMentions(
      [mention("symbol", "Widget")],
      sourcesFor(bed.root, { codeSearch: brokenIndex }),
    );
    expect(afterError.attachments.map((attachment) => [attachment.title, attachment.text])).toEqual(expected);
  });

  it("knows the usual ways of defining a name", async () => {
    bed.write("a.go", "func Run() {}\nfunc (s *Server) Run() error {}\n");
    bed.write("b.py", "def Run(x):\n");
    bed.write(
      "c.ts",
      "export function Run() {}\nexport const Run = 1;\ninterface Run {}\ntype Run = string;\nconst x = Run;\n",
    );
    const result = await resolveMentions(
      [mention("symbol", "Run")],
      sourcesFor(bed.root, { limits: { symbolDefinitions: 10 } }),
    );
    const headers = result.attachments[0]!.text.split("\n").filter((line) => /^\S+:\d+$/.test(line));
    expect(headers).toEqual(["a.go:1", "a.go:2", "b.py:1", "c.ts:1", "c.ts:2", "c.ts:3", "c.ts:4"]);
  });

  it("shows at most symbolDefinitions definitions", async () => {
    bed.write("many.ts", Array.from({ length: 9 }, () => "function dup() {}\n").join(""));
    const result = await resolveMentions([mention("symbol", "dup")], sourcesFor(bed.root));
    expect(result.attachments[0]!.text.match(/^many\.ts:\d+$/gm)).toEqual([
      "many.ts:1",
      "many.ts:2",
      "many.ts:3",
      "many.ts:4",
      "many.ts:5",
    ]);
  });

  it("reports a name defined nowhere, and one that is no identifier", async () => {
    bed.write("a.ts", "const y = 1;\n");
    const result = await resolveMentions(
      [mention("symbol", "Missing"), mention("symbol", "a-b")],
      sourcesFor(bed.root),
    );
    expect(result.errors.map(({ error }) => [error.code, error.message, error.hint])).toEqual([
      [
        "E_NOT_FOUND",
        "No definition of Missing was found in the project.",
        "Check the symbol's spelling, or search for it with codebase_search or search_files.",
      ],
      [
        "E_INVALID_ARGS",
        '@symbol takes one identifier (letters, digits, _ and $), not "a-b".',
        expect.any(String),
      ],
    ]);
  });
});
