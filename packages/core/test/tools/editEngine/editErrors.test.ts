import { describe, expect, it } from "vitest";
import { expectEdit, failed, succeeded } from "./editOutcome.js";

describe("create, no change and bad requests", () => {
  it("creates from an empty old_string on an empty file", () => {
    expect(succeeded("", { oldString: "", newString: "hello\nworld\n" })).toEqual({
      ok: true,
      content: "hello\nworld\n",
      strategy: "create",
      matches: [],
      removedLines: 0,
      addedLines: 2,
    });
  });

  it("refuses an empty old_string on a file with content, and never loops", () => {
    const error = failed("something\n", { oldString: "", newString: "x" });
    expect(error.code).toBe("E_INVALID_ARGS");
    expect(error.message).toContain("non-empty old_string");
    expect(error.message).toContain("write_file");
    expect(failed("something\n", { oldString: "", newString: "x", replaceAll: true }).code).toBe(
      "E_INVALID_ARGS",
    );
  });

  it("refuses identical strings, also when they differ only in line endings", () => {
    expect(failed("a\n", { oldString: "a", newString: "a" }).code).toBe("E_NO_CHANGE");
    expect(failed("a\nb\n", { oldString: "a\r\nb", newString: "a\nb" }).code).toBe("E_NO_CHANGE");
  });

  it("refuses a fuzzy match whose replacement changes nothing", () => {
    const error = failed("keep();\n", { oldString: "keep();   ", newString: "keep();" });
    expect(error).toMatchObject({ code: "E_NO_CHANGE" });
    expect(error.message).toBe(
      "old_string was found (line-trimmed), but replacing it with new_string leaves the file unchanged.",
    );
  });
});

describe("not found", () => {
  const file = Array.from({ length: 20 }, (_, index) => `line ${index + 1};`)
    .join("\n")
    .concat("\n");

  it("shows the closest region with numbered lines and what differs", () => {
    const error = failed(file, { oldString: "line 9;\nline ten;", newString: "x" });
    expect(error.code).toBe("E_NOT_FOUND");
    expect(error.message).toBe(
      [
        "old_string was not found in the file. The closest region is lines 9-10 (line 2 of old_string differs from line 10):",
        "     7|line 7;",
        "     8|line 8;",
        "     9|line 9;",
        "    10|line 10;",
        "    11|line 11;",
        "    12|line 12;",
      ].join("\n"),
    );
  });

  it("says when only indentation differs, and finds the region with no line in common", () => {
    const code = "def f():\n    if x:\n        return 1\n    return 2\n";
    const error = failed(code, { oldString: "if x:\n    retrun 1", newString: "y" });
    expect(error.message).toBe(
      [
        "old_string was not found in the file. The closest region is lines 2-3 (line 1 of old_string differs in indentation from line 2; line 2 of old_string differs from line 3):",
        "     1|def f():",
        "     2|    if x:",
        "     3|        return 1",
        "     4|    return 2",
      ].join("\n"),
    );
    const fuzzy = failed(code, { oldString: "retrun 2", newString: "y" });
    expect(fuzzy.message.split("\n")[0]).toBe(
      "old_string was not found in the file. The closest region is line 4 (line 1 of old_string differs from line 4):",
    );
  });

  it("says so for an empty file", () => {
    expect(failed("", { oldString: "x", newString: "y" })).toMatchObject({
      code: "E_NOT_FOUND",
      message: "old_string was not found: the file is empty.",
    });
  });
});

describe("replace_all", () => {
  it("replaces every exact occurrence, reporting each", () => {
    const outcome = succeeded("let count = 0;\ncount += 1;\nreturn count;\n", {
      oldString: "count",
      newString: "total",
      replaceAll: true,
    });
    expect(outcome).toEqual({
      ok: true,
      content: "let total = 0;\ntotal += 1;\nreturn total;\n",
      strategy: "exact",
      matches: [
        { startLine: 1, endLine: 1 },
        { startLine: 2, endLine: 2 },
        { startLine: 3, endLine: 3 },
      ],
      removedLines: 3,
      addedLines: 3,
    });
  });

  it("replaces non-overlapping occurrences from the left", () => {
    expectEdit(
      "aaa\n",
      { oldString: "aa", newString: "b", replaceAll: true },
      { content: "ba\n", strategy: "exact" },
    );
  });

  it("falls back to the one fuzzy match when there is no exact occurrence", () => {
    expectEdit(
      "if (x) {   \n  y();\n}\n",
      { oldString: "if (x) {\n  y();\n}", newString: "y();", replaceAll: true },
      { content: "y();\n", strategy: "line-trimmed" },
    );
  });

  it("refuses several fuzzy matches as not found", () => {
    const error = failed("a = 1 \nb\na = 1  \nb\n", {
      oldString: "a = 1\nb",
      newString: "c",
      replaceAll: true,
    });
    expect(error.code).toBe("E_NOT_FOUND");
    expect(error.message).toContain("replace_all replaces exact occurrences only");
    expect(error.message).toContain("at lines 1, 3");
  });
});
