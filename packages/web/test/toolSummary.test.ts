import { summarizeToolCall } from "@lathe/protocol";
import { describe, expect, it } from "vitest";
import { envelopeFiles, reportedDiffFiles, toolDiffFiles } from "../src/chat/toolDiff.js";
import { parseDiffFile } from "../src/render/index.js";

describe("tool card summaries", () => {
  it("says what each call does in one line", () => {
    const twelve = Array.from({ length: 12 }, (_, i) => `line ${i}`).join("\n");
    expect(summarizeToolCall("edit_file", { path: "src/a.ts", old_string: twelve, new_string: "x" })).toBe(
      "Editing src/a.ts (replacing ~12 lines)",
    );
    expect(summarizeToolCall("edit_file", { path: "n.ts", old_string: "", new_string: "a\nb\n" })).toBe(
      "Creating n.ts (2 lines)",
    );
    expect(summarizeToolCall("write_file", { path: "w.txt", contents: "one\n" })).toBe(
      "Writing w.txt (1 line)",
    );
    expect(summarizeToolCall("run_terminal_cmd", { command: "npm   test" })).toBe("Running npm test");
    expect(summarizeToolCall("read_file", { path: "a.ts", offset: 10, limit: 5 })).toBe(
      "Reading a.ts (lines 10–14)",
    );
    expect(summarizeToolCall("mcp__github__create_issue", {})).toBe("github: create_issue");
    expect(summarizeToolCall("edit_file", undefined)).toBe("edit_file");
    expect(
      summarizeToolCall("apply_patch", {
        patch: "*** Begin Patch\n*** Add File: a\n+1\n*** Delete File: b\n*** End Patch",
      }),
    ).toBe("Patching 2 files");
  });

  it("turns edit arguments into diff files", () => {
    expect(toolDiffFiles("edit_file", { path: "a", old_string: "x\n", new_string: "y\n" })).toEqual([
      { path: "a", oldText: "x\n", newText: "y\n" },
    ]);
    // Fragments that stop mid-file are not files without a final newline.
    expect(toolDiffFiles("edit_file", { path: "a", old_string: "x", new_string: "y" })).toEqual([
      { path: "a", oldText: "x\n", newText: "y\n" },
    ]);
    expect(toolDiffFiles("write_file", { path: "b", contents: "z" })).toEqual([{ path: "b", newText: "z" }]);
    expect(toolDiffFiles("read_file", { path: "b" })).toEqual([]);
    expect(
      envelopeFiles(
        "*** Begin Patch\n*** Update File: src/m.ts\n@@ function f\n keep\n-old\n+new\n*** Add File: n.ts\n+hello\n*** Delete File: gone.ts\n*** End Patch",
      ),
    ).toEqual([
      { path: "src/m.ts", oldText: "keep\nold\n", newText: "keep\nnew\n" },
      { path: "n.ts", newText: "hello\n" },
      { path: "gone.ts", oldText: "" },
    ]);
  });

  it("shows a completed edit's own diff of the file, with its line numbers, and leaves the lint note out", () => {
    const diff = "--- a/src/x.ts\n+++ b/src/x.ts\n@@ -3,6 +3,6 @@\n c\n d\n e\n-f\n+F\n g\n h\n";
    const output = `Edited src/x.ts (exact): replaced 1 line with 1 line.\n\n${diff}\nsrc/x.ts:6:1 error TS2304: Cannot find name 'F'.`;
    const files = reportedDiffFiles("edit_file", output);
    expect(files).toEqual([{ path: "src/x.ts", patch: diff }]);
    const lines = files.flatMap(parseDiffFile).flatMap((file) => file.hunks.flatMap((hunk) => hunk.lines));
    expect(lines.filter((line) => line.kind !== "context")).toEqual([
      { kind: "del", text: "f", oldNumber: 6 },
      { kind: "add", text: "F", newNumber: 6 },
    ]);
    // Two files of one patch, one after the other.
    const second = "--- a/b.ts\n+++ b/b.ts\n@@ -1 +1 @@\n-x\n+y\n";
    const patched = `Applied the patch to 2 files:\nM src/x.ts (+1 -1)\nM b.ts (+1 -1)\n\n${diff}${second.trimEnd()}`;
    expect(reportedDiffFiles("apply_patch", patched).map((file) => file.path)).toEqual(["src/x.ts", "b.ts"]);
    // No diff, a diff cut short, or a tool that reports none: the arguments' diff stays.
    expect(reportedDiffFiles("edit_file", "Created a.ts (1 line).")).toEqual([]);
    expect(reportedDiffFiles("edit_file", `Edited.\n\n--- a/x\n+++ b/x\n@@ -1,5 +1,5 @@\n a\n-b`)).toEqual(
      [],
    );
    expect(reportedDiffFiles("run_terminal_cmd", output)).toEqual([]);
  });
});
