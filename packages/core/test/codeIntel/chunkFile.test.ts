import { describe, expect, it } from "vitest";
import { chunkFile } from "../../src/codeIntel/indexing/chunkFile.js";
import { parseFile } from "../../src/codeIntel/parsing/parseFile.js";

async function chunksOf(path: string, source: string) {
  const parsed = await parseFile(path, source);
  return chunkFile(source, parsed?.symbols).map(({ startLine, endLine, symbol, kind, names }) => ({
    lines: [startLine, endLine],
    symbol,
    kind,
    names,
  }));
}

const lines = (count: number, make: (index: number) => string) =>
  Array.from({ length: count }, (_, i) => make(i));

describe("chunkFile", () => {
  it("makes one chunk per module-level symbol with the comments above it, and windows of the rest", async () => {
    const source = [
      'import { a } from "a";',
      "const limit = 10;",
      "",
      "/**",
      " * Parses the input.",
      " */",
      "export function parse(input: string) {",
      "  return input;",
      "}",
      "",
      "export class Box {",
      "  open() {}",
      "  shut() {}",
      "}",
      "",
    ].join("\n");
    expect(await chunksOf("a.ts", source)).toEqual([
      { lines: [1, 3], symbol: undefined, kind: undefined, names: [] },
      { lines: [4, 9], symbol: "parse", kind: "function", names: ["parse"] },
      { lines: [11, 14], symbol: "Box", kind: "class", names: ["Box", "open", "shut"] },
    ]);
  });

  it("keeps short exported constants in the text around them, naming them there", async () => {
    const source = ["export const a = 1;", "export const b = 2;", "", "export function f() {}", ""].join(
      "\n",
    );
    expect(await chunksOf("c.ts", source)).toEqual([
      { lines: [1, 3], symbol: undefined, kind: undefined, names: ["a", "b"] },
      { lines: [4, 4], symbol: "f", kind: "function", names: ["f"] },
    ]);
  });

  it("splits a large class into its header and its methods; the closing brace alone is dropped", async () => {
    const method = (name: string) => [`  ${name}() {`, ...lines(58, (i) => `    step${i}();`), "  }"];
    const source = [
      "export class Big {",
      "  count = 0;",
      ...method("first"),
      ...method("second"),
      "}",
      "",
    ].join("\n");
    expect(await chunksOf("big.ts", source)).toEqual([
      { lines: [1, 2], symbol: "Big", kind: "class", names: ["Big"] },
      { lines: [3, 62], symbol: "first", kind: "method", names: ["first"] },
      { lines: [63, 122], symbol: "second", kind: "method", names: ["second"] },
    ]);
  });

  it("cuts a long function without members into even windows that keep its name", async () => {
    const source = ["function long() {", ...lines(148, (i) => `  step${i}();`), "}", ""].join("\n");
    expect(await chunksOf("long.ts", source)).toEqual([
      { lines: [1, 50], symbol: "long", kind: "function", names: ["long"] },
      { lines: [51, 100], symbol: "long", kind: "function", names: ["long"] },
      { lines: [101, 150], symbol: "long", kind: "function", names: ["long"] },
    ]);
  });

  it("cuts files without a grammar into windows of at most 60 lines, blank ones dropped", async () => {
    // 261 lines: five even windows of 53; the fourth (lines 160-212) is all blank.
    const text = [...lines(130, (i) => `line ${i}`), ...lines(130, () => ""), "tail"].join("\n");
    expect((await chunksOf("notes.md", text)).map((chunk) => chunk.lines)).toEqual([
      [1, 53],
      [54, 106],
      [107, 159],
      [213, 261],
    ]);
  });

  it("keeps the chunk text exactly as the lines of the file", () => {
    const chunks = chunkFile("one\ntwo\nthree", undefined);
    expect(chunks).toEqual([{ startLine: 1, endLine: 3, names: [], text: "one\ntwo\nthree" }]);
  });
});
