import { describe, expect, it } from "vitest";
import { parseMentions } from "../../../src/context/mentions/parseMentions.js";

/** Each mention as `[kind, argument, raw]`, and every position checked against the text. */
function parsed(text: string): [string, string, string, ...("bare" | never)[]][] {
  return parseMentions(text).map((mention) => {
    expect(text.slice(mention.start, mention.end)).toBe(mention.raw);
    return mention.bare
      ? [mention.kind, mention.argument, mention.raw, "bare"]
      : [mention.kind, mention.argument, mention.raw];
  });
}

describe("parseMentions", () => {
  it("finds every kind with its argument and position", () => {
    const text = [
      "Look at @file src/a.ts and @folder src/lib,",
      "then @symbol parseMentions; follow @rule testing-style.",
      "Read @url https://example.com/docs?x=1 and @web how to parse mentions",
      "Compare @git diff with @git commit 1a2b3c4 and @git log.",
      "See @chat 0197a1b2 plus @lints and @terminal.",
    ].join("\n");
    expect(parseMentions(text)[0]).toEqual({
      kind: "file",
      argument: "src/a.ts",
      raw: "@file src/a.ts",
      start: 8,
      end: 22,
    });
    expect(parsed(text)).toEqual([
      ["file", "src/a.ts", "@file src/a.ts"],
      ["folder", "src/lib", "@folder src/lib"],
      ["symbol", "parseMentions", "@symbol parseMentions"],
      ["rule", "testing-style", "@rule testing-style"],
      ["url", "https://example.com/docs?x=1", "@url https://example.com/docs?x=1"],
      ["web", "how to parse mentions", "@web how to parse mentions"],
      ["git", "diff", "@git diff"],
      ["git", "commit 1a2b3c4", "@git commit 1a2b3c4"],
      ["git", "log", "@git log"],
      ["chat", "0197a1b2", "@chat 0197a1b2"],
      ["lints", "", "@lints"],
      ["terminal", "", "@terminal"],
    ]);
  });

  it("takes quoted arguments with spaces", () => {
    expect(parsed(`open @file "my file.ts", @folder 'two words/' and @web "exact query" now`)).toEqual([
      ["file", "my file.ts", '@file "my file.ts"'],
      ["folder", "two words/", "@folder 'two words/'"],
      ["web", "exact query", '@web "exact query"'],
    ]);
    expect(parsed("@file `a b.ts`")).toEqual([["file", "a b.ts", "@file `a b.ts`"]]);
  });

  it("reads an unclosed quote as a plain word", () => {
    expect(parsed('@file "a.ts')).toEqual([["file", "a.ts", '@file "a.ts']]);
  });

  it("ignores e-mail addresses, unknown kinds and kinds without an argument", () => {
    expect(parsed("mail bob@example.com or a.b@c.org")).toEqual([]);
    expect(parsed("@alice says hi to @here, @docs please")).toEqual([]);
    expect(parsed("the @file\nmention needs a path; so does @url")).toEqual([]);
    expect(parsed("@File x.ts is not a kind")).toEqual([]);
  });

  it("leaves sentence punctuation and unmatched brackets outside the mention", () => {
    expect(parsed("(see @file src/a.ts). Also @url https://en.wikipedia.org/wiki/Foo_(bar)!")).toEqual([
      ["file", "src/a.ts", "@file src/a.ts"],
      ["url", "https://en.wikipedia.org/wiki/Foo_(bar)", "@url https://en.wikipedia.org/wiki/Foo_(bar)"],
    ]);
    expect(parsed("@lints, @terminal: done")).toEqual([
      ["lints", "", "@lints"],
      ["terminal", "", "@terminal"],
    ]);
  });

  it("reads a bare @path as a possible file", () => {
    const text = "fix @src/a.ts and @README.md, not @someone; @./b.ts";
    expect(parsed(text)).toEqual([
      ["file", "src/a.ts", "@src/a.ts", "bare"],
      ["file", "README.md", "@README.md", "bare"],
      ["file", "./b.ts", "@./b.ts", "bare"],
    ]);
    expect(parseMentions(text)[0]).toMatchObject({ start: 4, end: 13, bare: true });
  });

  it("reads a kind name followed by more than punctuation as a bare path", () => {
    expect(parsed("@file.ts and @terminal.log")).toEqual([
      ["file", "file.ts", "@file.ts", "bare"],
      ["file", "terminal.log", "@terminal.log", "bare"],
    ]);
  });

  it("takes a @git commit without its sha as it is, for the resolver to refuse", () => {
    expect(parsed("@git commit\n@git status")).toEqual([
      ["git", "commit", "@git commit"],
      ["git", "status", "@git status"],
    ]);
  });

  it("finds mentions at the very start and end, and after an opening bracket", () => {
    expect(parsed("@lints")).toEqual([["lints", "", "@lints"]]);
    expect(parsed('["@file a.ts"]')).toEqual([["file", "a.ts", "@file a.ts"]]);
  });
});
