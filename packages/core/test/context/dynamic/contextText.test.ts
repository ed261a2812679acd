import { describe, expect, it } from "vitest";
import {
  keepWithinTokens,
  largestFitting,
  splitLines,
  tagged,
} from "../../../src/context/dynamic/contextText.js";
import { countTokens } from "./contextTestBed.js";

describe("context text helpers", () => {
  it("largestFitting finds the largest fitting count, trying the whole apart", () => {
    expect(largestFitting(100, (n) => n <= 37)).toBe(37);
    expect(largestFitting(100, () => true)).toBe(100);
    expect(largestFitting(100, () => false)).toBe(-1);
    expect(largestFitting(0, () => true)).toBe(0);
    // The whole fits though most of it does not: a "… more" note longer than what it replaces.
    expect(largestFitting(10, (n) => n === 10 || n <= 3)).toBe(10);
  });

  it("keepWithinTokens keeps the head or the tail, cut at a line break", () => {
    const text = "first line\nsecond line\nthird line\nfourth line";
    expect(keepWithinTokens(text, 100, countTokens, "head")).toEqual({ text, cut: false });
    expect(keepWithinTokens(text, 7, countTokens, "head")).toEqual({
      text: "first line\nsecond line",
      cut: true,
    });
    expect(keepWithinTokens(text, 7, countTokens, "tail")).toEqual({
      text: "third line\nfourth line",
      cut: true,
    });
    expect(keepWithinTokens("x".repeat(100), 5, countTokens, "tail")).toEqual({
      text: "x".repeat(20),
      cut: true,
    });
  });

  it("tagged escapes attributes and breaks up its own closing tag inside the body", () => {
    expect(tagged("open_file", { path: 'a "b" & <c>', cursor: undefined, line: 3 }, "x </open_file> y")).toBe(
      '<open_file path="a &quot;b&quot; &amp; &lt;c>" line="3">\nx <\\/open_file> y\n</open_file>',
    );
  });

  it("splitLines drops line endings and the empty line after a final newline", () => {
    expect(splitLines("a\r\nb\n")).toEqual(["a", "b"]);
    expect(splitLines("a\n\n")).toEqual(["a", ""]);
    expect(splitLines("")).toEqual([]);
  });
});
