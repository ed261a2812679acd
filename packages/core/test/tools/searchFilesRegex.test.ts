import { describe, expect, it } from "vitest";
import { compileRustRegex } from "../../src/tools/builtin/searchFiles/rustRegex.js";
import { findTextMatches } from "../../src/tools/builtin/searchFiles/textMatches.js";

function regexOf(pattern: string, caseInsensitive = false): RegExp {
  const compiled = compileRustRegex(pattern, caseInsensitive);
  if (!compiled.ok) throw new Error(`refused ${pattern}: ${compiled.reason}`);
  return compiled.regex;
}

function matchingLines(pattern: string, text: string, caseInsensitive = false): number[] {
  return findTextMatches(text, regexOf(pattern, caseInsensitive), 100, 0).lines.map((line) => line.number);
}

function refusal(pattern: string): string {
  const compiled = compileRustRegex(pattern, false);
  if (compiled.ok) throw new Error(`accepted ${pattern} as ${compiled.regex}`);
  return compiled.reason;
}

describe("compileRustRegex", () => {
  it("never matches across a line break", () => {
    const text = "a\nb\n\n c";
    expect(matchingLines("a.b", text)).toEqual([]);
    expect(matchingLines("a[^x]b", text)).toEqual([]);
    expect(matchingLines("a\\sb", text)).toEqual([]);
    expect(matchingLines("a[\\s]b", text)).toEqual([]);
    expect(matchingLines("a\\Wb", text)).toEqual([]);
    expect(matchingLines("a\\Db", text)).toEqual([]);
    expect(matchingLines("a\\P{L}b", text)).toEqual([]);
    expect(matchingLines("a[\\x00-\\x7F]b", text)).toEqual([]);
  });

  it("anchors ^ and $ (and \\A, \\z) at each line, with \\r part of the line", () => {
    const text = "one\ntwo\r\nthree";
    expect(matchingLines("^t", text)).toEqual([2, 3]);
    expect(matchingLines("o$", text)).toEqual([]);
    expect(matchingLines("e$", text)).toEqual([1, 3]);
    expect(matchingLines("\\Athree\\z", text)).toEqual([3]);
    expect(matchingLines("^$", "a\n\nb\n")).toEqual([2]);
  });

  it("uses Rust's Unicode classes, not JavaScript's ASCII ones", () => {
    expect(matchingLines("^\\w+$", "café\nnaïve\nx-y")).toEqual([1, 2]);
    expect(matchingLines("\\d", "٣\nx")).toEqual([1]);
    expect(matchingLines("\\s", "a\u0085b\na\uFEFFb")).toEqual([1]);
    expect(matchingLines("\\bé", "a é\naé")).toEqual([1]);
  });

  it("translates Rust-only syntax", () => {
    expect(matchingLines("(?i)HELLO", "hello")).toEqual([1]);
    expect(matchingLines("(?-i)HELLO", "hello", true)).toEqual([]);
    expect(matchingLines("(?P<name>ab)+", "abab")).toEqual([1]);
    expect(matchingLines("[[:alpha:]]+\\d", "abc1\n123")).toEqual([1]);
    expect(matchingLines("\\p{Greek}", "λ\nl")).toEqual([1]);
    expect(matchingLines("\\pL\\pN", "a1\n--")).toEqual([1]);
    expect(matchingLines("\\x{263A}|\\u0041", "☺\nA\nB")).toEqual([1, 2]);
    expect(matchingLines("a\\#b\\&c", "a#b&c")).toEqual([1]);
    expect(matchingLines("(?x) a b # comment", "ab\na b")).toEqual([1]);
    expect(matchingLines("[]x]", "]\ny\nx")).toEqual([1, 3]);
    expect(matchingLines("a}", "a}")).toEqual([1]);
  });

  it("refuses what ripgrep refuses, with the reason", () => {
    expect(refusal("a(?=b)")).toMatch(/look-around/);
    expect(refusal("(?<!a)b")).toMatch(/look-around/);
    expect(refusal("(a)\\1")).toMatch(/backreferences/);
    expect(refusal("a\\nb")).toMatch(/"\\n" is not allowed/);
    expect(refusal("a{")).toMatch(/repetition/);
    expect(refusal("\\y")).toMatch(/unrecognized escape sequence \\y/);
    expect(refusal("[a-")).toMatch(/unclosed character class/);
    expect(refusal("(ab")).toMatch(/invalid regular expression/);
  });

  it("refuses clearly what JavaScript cannot express", () => {
    expect(refusal("a(?i)b")).toMatch(/only at the start of the pattern/);
    expect(refusal("[a[bc]]")).toMatch(/nested character classes/);
    expect(refusal("[a-z&&[^aeiou]]")).toMatch(/nested character classes|set operations/);
    expect(refusal("[\\W]")).toMatch(/\\W inside a character class/);
    expect(refusal("[[:^alpha:]]")).toMatch(/negated POSIX classes/);
    expect(refusal("(?U)a+")).toMatch(/flag U is not supported/);
  });
});

describe("findTextMatches", () => {
  it("counts every matching line but keeps only the first ones, with their context", () => {
    const text = Array.from({ length: 10 }, (_, index) =>
      index % 2 === 0 ? `hit ${index + 1}` : "miss",
    ).join("\n");
    const found = findTextMatches(text, regexOf("hit"), 2, 1);
    expect(found.matchCount).toBe(5);
    expect(found.lines.map((line) => `${line.number}${line.match ? ":" : "-"}`)).toEqual([
      "1:",
      "2-",
      "3:",
      "4-",
    ]);
    expect(found.lines[0]?.column).toBe(0);
  });

  it("gives the UTF-16 column of the first match", () => {
    const found = findTextMatches("😀 and x", regexOf("x"), 10, 0);
    expect(found.lines[0]?.column).toBe(7);
  });
});
