import { describe, expect, it } from "vitest";
import { parseFrontMatter } from "../../../src/context/rules/frontMatter.js";
import { classifyRule } from "../../../src/context/rules/ruleClassification.js";

describe("parseFrontMatter", () => {
  it("reads values, booleans, inline and item lists, quotes and comments", () => {
    const text = [
      "\uFEFF---",
      "# a comment",
      'description: "Testing: how we write tests"',
      "globs: [src/**/*.{ts,tsx}, 'a, b.md', \"x\"]",
      "alwaysApply: False",
      "tags:",
      "  - one",
      '  - "two"',
      "empty:",
      "---",
      "Body line 1",
      "Body line 2",
    ].join("\r\n");
    expect(parseFrontMatter(text)).toEqual({
      ok: true,
      data: {
        description: "Testing: how we write tests",
        globs: ["src/**/*.{ts,tsx}", "a, b.md", "x"],
        alwaysApply: false,
        tags: ["one", "two"],
        empty: "",
      },
      body: "Body line 1\nBody line 2",
    });
  });

  it("treats a file without an opening --- as all body", () => {
    expect(parseFrontMatter("Just text\n---\n")).toEqual({ ok: true, data: {}, body: "Just text\n---\n" });
  });

  it("reports what it cannot read, with the line", () => {
    expect(parseFrontMatter("---\ndescription: x\n")).toEqual({
      ok: false,
      message: "front matter starts with --- on line 1 but is never closed",
    });
    expect(parseFrontMatter("---\ndescription: x\nthis is not yaml\n---\n")).toEqual({
      ok: false,
      message: 'front matter line 3: expected "key: value", got "this is not yaml"',
    });
    expect(parseFrontMatter("---\n- orphan\n---\n")).toEqual({
      ok: false,
      message: "front matter line 2: a list item has no key above it",
    });
    expect(parseFrontMatter("---\nglobs: a\nglobs: b\n---\n")).toEqual({
      ok: false,
      message: 'front matter line 3: "globs" is set twice',
    });
    expect(parseFrontMatter("---\nglobs: [a, b\n---\n")).toEqual({
      ok: false,
      message: 'front matter line 2: the list of "globs" is not closed with ]',
    });
  });
});

describe("classifyRule", () => {
  it("follows alwaysApply, then globs, then description", () => {
    expect(classifyRule({ alwaysApply: true, globs: "*.ts" })).toEqual({
      ok: true,
      kind: "always",
      globs: ["*.ts"],
    });
    expect(classifyRule({ globs: "src/**/*.ts, *.{css,scss}", description: "Styles" })).toEqual({
      ok: true,
      kind: "auto",
      globs: ["src/**/*.ts", "*.{css,scss}"],
      description: "Styles",
    });
    expect(classifyRule({ globs: ["a/**, b/**", "c"] })).toEqual({
      ok: true,
      kind: "auto",
      globs: ["a/**", "b/**", "c"],
    });
    expect(classifyRule({ description: "When to deploy", globs: "", alwaysApply: false })).toEqual({
      ok: true,
      kind: "requested",
      globs: [],
      description: "When to deploy",
    });
    expect(classifyRule({ description: " " })).toEqual({ ok: true, kind: "manual", globs: [] });
  });

  it("refuses values of the wrong type", () => {
    expect(classifyRule({ alwaysApply: "yes" })).toEqual({
      ok: false,
      message: 'alwaysApply must be true or false, not "yes"',
    });
    expect(classifyRule({ description: ["a"] })).toEqual({
      ok: false,
      message: "description must be one line of text, not a list or a boolean",
    });
    expect(classifyRule({ globs: true })).toEqual({
      ok: false,
      message: "globs must be a pattern or a list of patterns",
    });
  });
});
