import { describe, expect, it } from "vitest";
import { unifiedDiff } from "../../../src/tools/editEngine/unifiedDiff.js";

describe("unifiedDiff", () => {
  it("writes a/ and b/ headers and three lines of context", () => {
    const before = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
    const after = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n";
    expect(unifiedDiff("src/n.txt", before, after)).toBe(
      [
        "--- a/src/n.txt",
        "+++ b/src/n.txt",
        "@@ -2,7 +2,7 @@",
        " 2",
        " 3",
        " 4",
        "-5",
        "+five",
        " 6",
        " 7",
        " 8",
        "",
      ].join("\n"),
    );
  });

  it("shows CRLF files without carriage returns and marks a missing final newline", () => {
    expect(unifiedDiff("w.txt", "a\r\nb", "a\r\nc")).toBe(
      [
        "--- a/w.txt",
        "+++ b/w.txt",
        "@@ -1,2 +1,2 @@",
        " a",
        "-b",
        "\\ No newline at end of file",
        "+c",
        "\\ No newline at end of file",
        "",
      ].join("\n"),
    );
  });

  it("gives the headers only for identical texts", () => {
    expect(unifiedDiff("same.txt", "x\n", "x\n")).toBe("--- a/same.txt\n+++ b/same.txt\n");
  });
});
