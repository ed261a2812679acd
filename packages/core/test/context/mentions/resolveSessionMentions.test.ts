import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseMentions } from "../../../src/context/mentions/parseMentions.js";
import { resolveMentions } from "../../../src/context/mentions/resolveMentions.js";
import { type ContextTestBed, countTokens, createContextTestBed } from "../dynamic/contextTestBed.js";
import { mention, sourcesFor } from "./mentionTestBed.js";

let bed: ContextTestBed;
beforeEach(() => {
  bed = createContextTestBed();
});
afterEach(() => bed.cleanup());

describe("@rule, @web, @lints, @terminal", () => {
  it("hands @rule names to the caller, each once", async () => {
    const result = await resolveMentions(
      parseMentions("@rule testing and @rule style, again @rule testing"),
      sourcesFor(bed.root),
    );
    expect(result).toEqual({ attachments: [], rules: ["testing", "style"], errors: [], files: [] });
  });

  it("says plainly that web search is not configured", async () => {
    const result = await resolveMentions(parseMentions("@web vitest fake timers"), sourcesFor(bed.root));
    expect(result.attachments.map(({ title, text }) => [title, text])).toEqual([
      [
        'web search "vitest fake timers"',
        'Web search is not configured, so "vitest fake timers" was not searched. To attach a page, mention its address with @url.',
      ],
    ]);
    expect(result.errors).toEqual([]);
  });

  it("attaches the known lint problems", async () => {
    const lintProblems = [
      {
        path: "src/a.ts",
        line: 3,
        column: 7,
        severity: "error",
        message: "Type mismatch",
        source: "tsc",
        code: "TS2322",
      },
      { path: "src/b.py", line: 1, severity: "warning", message: "unused import", source: "ruff" },
    ];
    const result = await resolveMentions([mention("lints", "")], sourcesFor(bed.root, { lintProblems }));
    expect(result.attachments.map(({ title, text }) => [title, text])).toEqual([
      [
        "lint problems",
        "src/a.ts:3:7: error TS2322: Type mismatch (tsc)\nsrc/b.py:1: warning: unused import (ruff)",
      ],
    ]);
    const none = await resolveMentions([mention("lints", "")], sourcesFor(bed.root));
    expect(none.attachments[0]!.text).toBe(
      "No lint problems are known. read_lints runs the project's checkers.",
    );
  });

  it("attaches the terminal output, keeping its end when it is too long", async () => {
    const result = await resolveMentions(
      [mention("terminal", "")],
      sourcesFor(bed.root, { terminalTail: "$ make\nok\n" }),
    );
    expect(result.attachments.map(({ title, text }) => [title, text])).toEqual([
      ["terminal output", "$ make\nok\n"],
    ]);

    const long = Array.from({ length: 500 }, (_, index) => `line ${index}`).join("\n");
    const cut = await resolveMentions(
      [mention("terminal", "")],
      sourcesFor(bed.root, { terminalTail: long, maxTokensPerMention: 50 }),
    );
    const { text, tokens } = cut.attachments[0]!;
    expect(tokens).toBeLessThanOrEqual(50);
    expect(tokens).toBe(countTokens(text));
    expect(text.startsWith("[Cut at the 50-token limit of one mention; the end is shown.]\n")).toBe(true);
    expect(text.endsWith("line 498\nline 499")).toBe(true);

    const none = await resolveMentions([mention("terminal", "")], sourcesFor(bed.root));
    expect(none.attachments[0]!.text).toBe("No terminal output is available.");
  });

  it("resolves at most maxMentions mentions and reports the rest", async () => {
    const mentions = ["a", "b", "c"].map((name) => mention("rule", name));
    const result = await resolveMentions(mentions, sourcesFor(bed.root, { limits: { maxMentions: 2 } }));
    expect(result.rules).toEqual(["a", "b"]);
    expect(result.errors.map(({ error }) => [error.code, error.message])).toEqual([
      ["E_INVALID_ARGS", "Only the first 2 mentions of a message are resolved; @rule c was not."],
    ]);
  });

  it("reports every mention as cancelled once the signal has fired", async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await resolveMentions(
      [mention("lints", ""), mention("file", "a.ts")],
      sourcesFor(bed.root, { signal: controller.signal }),
    );
    expect(result.attachments).toEqual([]);
    expect(result.errors.map(({ error }) => [error.code, error.message])).toEqual([
      ["E_CANCELLED", "@lints was not resolved: cancelled."],
      ["E_CANCELLED", "@file a.ts was not resolved: cancelled."],
    ]);
  });
});
