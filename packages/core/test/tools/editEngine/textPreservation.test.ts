import { describe, expect, it } from "vitest";
import { expectEdit, failed, succeeded } from "./editOutcome.js";

describe("what an edit preserves", () => {
  it("keeps a CRLF file CRLF, new lines included", () => {
    expectEdit(
      "a\r\nb\r\nc\r\n",
      { oldString: "b", newString: "x\ny" },
      { content: "a\r\nx\r\ny\r\nc\r\n", strategy: "exact" },
    );
  });

  it("matches an old_string written with CRLF or LF against a CRLF file", () => {
    const file = "one\r\ntwo\r\nthree\r\n";
    expect(succeeded(file, { oldString: "one\r\ntwo\r\n", newString: "2\r\n" }).content).toBe(
      "2\r\nthree\r\n",
    );
    expect(succeeded(file, { oldString: "one\ntwo\n", newString: "2\n" }).content).toBe("2\r\nthree\r\n");
  });

  it("leaves the other lines of a mixed file byte for byte, writing new text in the dominant ending", () => {
    expectEdit(
      "a\r\nb\nc\r\nd\r\n",
      { oldString: "c", newString: "c1\nc2" },
      { content: "a\r\nb\nc1\r\nc2\r\nd\r\n", strategy: "exact" },
    );
  });

  it("keeps the ending of each line it replaces in a mixed file", () => {
    // b ends with LF in a mostly-CRLF file: rewriting it with its line break keeps LF.
    expectEdit(
      "a\r\nb\nc\r\nd\r\n",
      { oldString: "b\n", newString: "B\n" },
      { content: "a\r\nB\nc\r\nd\r\n", strategy: "exact" },
    );
    expectEdit(
      "a\r\nb\nc\r\nd\r\n",
      { oldString: "a\nb\nc\n", newString: "A\nB\nC\n" },
      { content: "A\r\nB\nC\r\nd\r\n", strategy: "exact" },
    );
  });

  it("gives a line added between CRLF lines of a mostly-LF file their CRLF", () => {
    expectEdit(
      "x\ny\nz\na\r\nb\r\n",
      { oldString: "a\nb", newString: "a\nnew\nb" },
      { content: "x\ny\nz\na\r\nnew\r\nb\r\n", strategy: "exact" },
    );
  });

  it("keeps a CRLF file without a final newline CRLF", () => {
    expectEdit(
      "a\r\nb",
      { oldString: "b", newString: "B\nC" },
      { content: "a\r\nB\r\nC", strategy: "exact" },
    );
    expectEdit(
      "a\r\nb",
      { oldString: "a\nb", newString: "A\nB\nC" },
      { content: "A\r\nB\r\nC", strategy: "exact" },
    );
  });

  it("keeps a CRLF file CRLF through a fuzzy strategy", () => {
    expectEdit(
      "if (x) {\r\n    call();   \r\n}\r\n",
      { oldString: "if (x) {\n    call();\n}", newString: "if (x) {\n    other();\n}" },
      { content: "if (x) {\r\n    other();\r\n}\r\n", strategy: "line-trimmed" },
    );
  });

  it("keeps a byte-order mark, also when the edit is at the start", () => {
    expectEdit(
      "\uFEFFa\nb\n",
      { oldString: "a\nb", newString: "A\nB" },
      { content: "\uFEFFA\nB\n", strategy: "exact" },
    );
    expectEdit(
      "\uFEFFx = 1\r\n",
      { oldString: "x = 1", newString: "x = 2" },
      { content: "\uFEFFx = 2\r\n", strategy: "exact" },
    );
  });

  it("keeps a missing final newline", () => {
    expectEdit("a\nb", { oldString: "b", newString: "c\n" }, { content: "a\nc", strategy: "exact" });
    expectEdit(
      "a\nb",
      { oldString: "a\nb\n", newString: "x\ny\n" },
      { content: "x\ny", strategy: "line-trimmed" },
    );
    expectEdit("a\nb", { oldString: "b", newString: "" }, { content: "a", strategy: "exact" });
  });

  it("keeps a final newline the file has", () => {
    expectEdit("a\nb\n", { oldString: "b\n", newString: "c" }, { content: "a\nc\n", strategy: "exact" });
    expectEdit("a\nb\n", { oldString: "a\nb\n", newString: "" }, { content: "", strategy: "exact" });
    expectEdit("a\nb\nc\n", { oldString: "b\n", newString: "" }, { content: "a\nc\n", strategy: "exact" });
  });

  it("keeps tabs", () => {
    expectEdit(
      "\tif x {\n\t\treturn\n\t}\n",
      { oldString: "\t\treturn", newString: "\t\treturn 1" },
      { content: "\tif x {\n\t\treturn 1\n\t}\n", strategy: "exact" },
    );
  });

  it("inserts $ patterns literally", () => {
    expectEdit(
      "price = 1\n",
      { oldString: "1", newString: "$& $1 $$ $' $`" },
      { content: "price = $& $1 $$ $' $`\n", strategy: "exact" },
    );
  });

  it("replaces only the span of a partial-line old_string", () => {
    const outcome = succeeded("const value = compute(a, b); // keep\n", {
      oldString: "compute(a, b)",
      newString: "compute(b, a)",
    });
    expect(outcome.content).toBe("const value = compute(b, a); // keep\n");
    expect(outcome.matches).toEqual([{ startLine: 1, endLine: 1 }]);
  });

  it("never lets a whole-line strategy take a partial line", () => {
    expectEdit(
      "  y(x = 1);\n  x = 1;\n",
      { oldString: "x  =  1;", newString: "x = 2;" },
      { content: "  y(x = 1);\n  x = 2;\n", strategy: "whitespace-normalized" },
    );
  });

  it("matches a partial line with other spacing only over the snippet's own span", () => {
    expectEdit(
      "  x = 1; // note\n",
      { oldString: "x  = 1;", newString: "x = 2;" },
      { content: "  x = 2; // note\n", strategy: "whitespace-normalized" },
    );
    expectEdit(
      "total = price  *  qty + fee;\n",
      { oldString: " price * qty ", newString: " price * qty * rate " },
      { content: "total = price * qty * rate + fee;\n", strategy: "whitespace-normalized" },
    );
  });

  it("does not let spaces around a snippet match inside a word", () => {
    expect(failed("const recount = 1;\n", { oldString: " count ", newString: " total " }).code).toBe(
      "E_NOT_FOUND",
    );
  });

  it("refuses a spaced snippet that fits twice, counting whole lines and partial ones together", () => {
    const error = failed("a  =  b\nc(a =  b);\n", { oldString: "a = b", newString: "a = c" });
    expect(error.code).toBe("E_MULTIPLE_MATCHES");
    expect(error.message).toContain("(whitespace-normalized) it fits 2 places, at lines 1, 2.");
  });
});
