import { describe, expect, it } from "vitest";
import { analyzeIndentation } from "../../../src/tools/editEngine/indentation.js";
import { levelScaling, uniformOffset, type WidthPair } from "../../../src/tools/editEngine/indentMapping.js";

const pairs = (...widths: [number, number][]): WidthPair[] => widths.map(([old, file]) => ({ old, file }));

describe("uniformOffset", () => {
  it("moves every width by the one offset the lines share, never below column 0", () => {
    const mapping = uniformOffset(pairs([0, 4], [4, 8]));
    expect(mapping?.kind).toBe("shifted");
    expect([0, 8, 2].map((width) => mapping?.map(width))).toEqual([4, 12, 6]);
    expect(uniformOffset(pairs([4, 0], [8, 4]))?.map(2)).toBe(0);
  });

  it("finds nothing when the lines moved by different amounts", () => {
    expect(uniformOffset(pairs([0, 0], [2, 4]))).toBeUndefined();
  });
});

describe("levelScaling", () => {
  it("maps 2-space levels onto 4-space ones, including levels old_string never showed", () => {
    const mapping = levelScaling(pairs([0, 0], [2, 4], [4, 8]));
    expect(mapping?.kind).toBe("scaled");
    expect([0, 2, 4, 6, 10].map((width) => mapping?.map(width))).toEqual([0, 4, 8, 12, 20]);
  });

  it("maps 4-space levels onto 2-space ones, and clamps what falls below column 0", () => {
    const mapping = levelScaling(pairs([4, 2], [8, 4], [12, 6]));
    expect([4, 16, 0].map((width) => mapping?.map(width))).toEqual([2, 8, 0]);
  });

  it("keeps a base offset: the block sits a level deeper in the file than in old_string", () => {
    const mapping = levelScaling(pairs([2, 8], [4, 12], [6, 16]));
    expect([2, 8, 0].map((width) => mapping?.map(width))).toEqual([8, 20, 4]);
  });

  it("keeps columns past a whole level as they are, as alignment", () => {
    const mapping = levelScaling(pairs([2, 4], [3, 5], [4, 8]));
    expect([3, 5, 7].map((width) => mapping?.map(width))).toEqual([5, 9, 13]);
  });

  it("prefers the usual unit when several explain the lines", () => {
    // 0, 4, 8 → 0, 2, 4 fits old levels of 4 (file 2) and of 2 (file 1); a line at 2 tells them apart.
    expect(levelScaling(pairs([0, 0], [4, 2], [8, 4]))?.map(2)).toBe(2);
  });

  it("finds nothing when one line contradicts the rule the others suggest", () => {
    expect(levelScaling(pairs([0, 0], [2, 4], [6, 8]))).toBeUndefined();
    expect(levelScaling(pairs([0, 4], [2, 0]))).toBeUndefined();
  });

  it("leaves lines that differ by an offset to uniformOffset", () => {
    expect(levelScaling(pairs([0, 2], [2, 4]))).toBeUndefined();
  });
});

describe("analyzeIndentation", () => {
  const analyze = (old: string[], file: string[]) =>
    analyzeIndentation(old.map((line, index) => ({ old: line, file: file[index] ?? "" })));

  it("re-indents new_string by scaled levels when no offset explains the block", () => {
    const adjustment = analyze(["def f():", "  return 1"], ["def f():", "    return 1"]);
    expect(adjustment.relation).toBe("scaled");
    expect(adjustment.reindent("def f(x):\n  if x:\n    return 1\n\n  return 2")).toBe(
      "def f(x):\n    if x:\n        return 1\n\n    return 2",
    );
  });

  it("prefers an offset at another tab width to a scaling: 2 spaces for one tab", () => {
    const adjustment = analyze(["if x {", "  y()", "}"], ["if x {", "\ty()", "}"]);
    expect(adjustment.relation).toBe("shifted");
    expect(adjustment.reindent("if x {\n  if z {\n    y()\n  }\n}")).toBe(
      "if x {\n\tif z {\n\t\ty()\n\t}\n}",
    );
  });

  it("writes scaled levels in the file's tabs", () => {
    // 3-space levels are an offset at no tab width; at width 4 they scale 3 → 4, one tab a level.
    const adjustment = analyze(["a", "   b", "      c"], ["a", "\tb", "\t\tc"]);
    expect(adjustment.relation).toBe("scaled");
    expect(adjustment.reindent("a\n         d\n    e")).toBe("a\n\t\t\td\n\t e");
  });

  it("calls irregular a block no single rule explains, and leaves new_string as written", () => {
    const adjustment = analyze(["if x:", "      y()", "  z()"], ["if x:", "    y()", "z()"]);
    expect(adjustment.relation).toBe("irregular");
    expect(adjustment.reindent("if x:\n    w()")).toBe("if x:\n    w()");
  });

  it("maps the lines after a first line copied from mid-line", () => {
    const adjustment = analyze(["method() {", "  go();", "}"], ["    method() {", "        go();", "    }"]);
    expect(adjustment).toMatchObject({ relation: "scaled", keepFirstIndent: true });
    expect(adjustment.reindent("method() {\n  go();\n    deeper();\n}")).toBe(
      "method() {\n        go();\n            deeper();\n    }",
    );
  });
});
