import { describe, expect, it } from "vitest";
import { hunkCounts, lineHunks, rejectHunks } from "../../src/checkpoint/lineHunks.js";

const numbered = (count: number, change: Record<number, string> = {}) =>
  Array.from({ length: count }, (_, index) => `${change[index + 1] ?? `line ${index + 1}`}\n`).join("");

describe("line hunks", () => {
  it("keeps three lines of context around a change", () => {
    const hunks = lineHunks(numbered(10), numbered(10, { 5: "five" }));
    expect(hunks).toEqual([
      {
        oldIndex: 1,
        oldCount: 7,
        newIndex: 1,
        newCount: 7,
        lines: [" line 2", " line 3", " line 4", "-line 5", "+five", " line 6", " line 7", " line 8"],
      },
    ]);
    expect(hunkCounts(hunks)).toEqual({ added: 1, removed: 1 });
  });

  it.each([
    ["six kept lines between two changes", 8, 1],
    ["seven kept lines between two changes", 9, 2],
  ])("makes one hunk or two: %s", (_, second, count) => {
    expect(lineHunks(numbered(20), numbered(20, { 1: "one", [second]: "changed" }))).toHaveLength(count);
  });

  it.each([
    ["a line changed", "a\nb\nc\n", "a\nB\nc\n"],
    ["a line added at the end, without a final newline", "a\nb\n", "a\nb\nc"],
    ["the final newline removed", "a\nb\n", "a\nb"],
    ["the first line removed", "a\nb\nc\n", "b\nc\n"],
    ["everything added", "", "x\ny\n"],
    ["everything removed", "x\ny\n", ""],
    ["CRLF lines", "a\r\nb\r\nc\r\n", "a\r\nB\r\nc\r\nd\r\n"],
  ])("rejecting every hunk gives the old text back byte for byte: %s", (_, before, after) => {
    const all = new Set(lineHunks(before, after).map((_, index) => index));
    expect(rejectHunks(before, after, all)).toBe(before);
    expect(rejectHunks(before, after, new Set())).toBe(after);
  });

  it("puts back only the hunks rejected", () => {
    const before = numbered(30);
    const after = numbered(30, { 3: "three", 15: "fifteen", 27: "twenty-seven" });
    expect(lineHunks(before, after)).toHaveLength(3);
    expect(rejectHunks(before, after, new Set([1]))).toBe(numbered(30, { 3: "three", 27: "twenty-seven" }));
    expect(rejectHunks(before, after, new Set([0, 2]))).toBe(numbered(30, { 15: "fifteen" }));
  });

  it("shows lines without their endings", () => {
    expect(lineHunks("a\r\nb", "a\r\nc").map((hunk) => hunk.lines)).toEqual([[" a", "-b", "+c"]]);
  });
});
