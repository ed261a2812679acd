import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readFileTool } from "../../src/tools/builtin/readFile/readFile.js";
import { capOutput } from "../../src/tools/outputCap.js";
import type { OutputLimits } from "../../src/tools/tool.js";
import { createToolTestBed, errorOf, outputOf, type ToolTestBed } from "./toolTestContext.js";

let bed: ToolTestBed;
beforeEach(() => {
  bed = createToolTestBed();
});
afterEach(() => bed.cleanup());

const write = (relative: string, contents: string | Buffer) => {
  const absolute = path.join(bed.projectRoot, relative);
  mkdirSync(path.dirname(absolute), { recursive: true });
  writeFileSync(absolute, contents);
  return absolute;
};
const read = (args: { path: string; offset?: number; limit?: number }, outputLimits?: OutputLimits) =>
  readFileTool.execute(args, bed.context(outputLimits ? { outputLimits } : {}));
const numbered = (from: number, to: number) =>
  Array.from(
    { length: to - from + 1 },
    (_, index) => `${String(from + index).padStart(6)}|line ${from + index}`,
  );
const lines = (count: number) => Array.from({ length: count }, (_, index) => `line ${index + 1}`).join("\n");

describe("read_file", () => {
  it("numbers lines six wide with a bar, and shows a whole short file without a footer", async () => {
    write("a.txt", "alpha\nbeta\n\ngamma\n");
    expect(outputOf(await read({ path: "a.txt" }))).toBe("     1|alpha\n     2|beta\n     3|\n     4|gamma");
  });

  it("counts a last line without a final newline and drops CR of CRLF endings", async () => {
    write("crlf.txt", "one\r\ntwo\r\nthree");
    expect(outputOf(await read({ path: "crlf.txt" }))).toBe("     1|one\n     2|two\n     3|three");
  });

  it("reads from offset for limit lines, with a footer saying how to continue", async () => {
    write("ten.txt", `${lines(10)}\n`);
    expect(outputOf(await read({ path: "ten.txt", offset: 3, limit: 2 }))).toBe(
      [
        ...numbered(3, 4),
        "[Lines 3-4 of 10. The file continues: call read_file with offset=5 to read more.]",
      ].join("\n"),
    );
    expect(outputOf(await read({ path: "ten.txt", offset: 9 }))).toBe(
      [...numbered(9, 10), "[Lines 9-10 of 10; end of file.]"].join("\n"),
    );
  });

  it("refuses an offset past the end", async () => {
    write("ten.txt", lines(10));
    const error = errorOf(await read({ path: "ten.txt", offset: 11 }));
    expect(error.code).toBe("E_INVALID_ARGS");
    expect(error.message).toBe("offset 11 is past the end of ten.txt, which has 10 lines.");
  });

  it("shows 2,000 lines by default", async () => {
    write("long.txt", lines(2500));
    const output = outputOf(await read({ path: "long.txt" }, { maxLines: 10_000, maxBytes: 10_000_000 }));
    const shown = output.split("\n");
    expect(shown.slice(0, -1)).toEqual(numbered(1, 2000));
    expect(shown.at(-1)).toBe(
      "[Lines 1-2000 of 2500. The file continues: call read_file with offset=2001 to read more.]",
    );
  });

  it("stays within the output limits so nothing needs spilling, and says where to continue", async () => {
    write("big.txt", lines(3000));
    const output = outputOf(await read({ path: "big.txt" }));
    expect(Buffer.byteLength(output)).toBeLessThanOrEqual(50 * 1024);
    const shown = output.split("\n");
    const last = shown.length - 1;
    expect(shown.slice(0, -1)).toEqual(numbered(1, last));
    expect(shown.at(-1)).toBe(
      `[Lines 1-${last} of 3000. The file continues: call read_file with offset=${last + 1} to read more.]`,
    );
    const capped = await capOutput(output, {
      limits: { maxLines: 2000, maxBytes: 50 * 1024 },
      truncation: "head",
      spill: { latheHome: bed.latheHome, sessionId: "s", callId: "c" },
    });
    expect(capped.truncated).toBe(false);
  });

  it("keeps the footer under the line cap", async () => {
    write("twenty.txt", lines(20));
    const output = outputOf(await read({ path: "twenty.txt" }, { maxLines: 5, maxBytes: 100_000 }));
    expect(output.split("\n")).toEqual([
      ...numbered(1, 4),
      "[Lines 1-4 of 20. The file continues: call read_file with offset=5 to read more.]",
    ]);
  });

  it("cuts lines longer than 2,000 characters with a marker, never inside a character", async () => {
    write("wide.txt", `${"a".repeat(2500)}\n${"é".repeat(3000)}\nshort\n`);
    const [first, second, third] = outputOf(await read({ path: "wide.txt" })).split("\n");
    expect(first).toBe(`     1|${"a".repeat(2000)} … [line cut at 2,000 characters; it is 2,500 bytes long]`);
    expect(second).toBe(
      `     2|${"é".repeat(2000)} … [line cut at 2,000 characters; it is 6,000 bytes long]`,
    );
    expect(third).toBe("     3|short");
  });

  it("reads lines that cross its internal chunks exactly, deep into a large file", async () => {
    write("huge.txt", `${lines(200_000)}\n`);
    const output = outputOf(await read({ path: "huge.txt", offset: 150_000, limit: 3 }));
    expect(output).toBe(
      [
        ...numbered(150_000, 150_002),
        "[Lines 150000-150002 of 200000. The file continues: call read_file with offset=150003 to read more.]",
      ].join("\n"),
    );
  });

  it("says when a file is empty", async () => {
    write("empty.txt", "");
    expect(outputOf(await read({ path: "empty.txt" }))).toBe("[empty.txt is empty.]");
  });

  it("refuses files with a NUL byte in the first 8 KB", async () => {
    write("data.txt", Buffer.from([0x61, 0x62, 0x00, 0x63]));
    const error = errorOf(await read({ path: "data.txt" }));
    expect(error.code).toBe("E_BINARY_FILE");
    expect(error.message).toContain("NUL");
  });

  it("refuses known binary extensions whatever their bytes", async () => {
    write("logo.png", "looks like text");
    const error = errorOf(await read({ path: "logo.png" }));
    expect(error.code).toBe("E_BINARY_FILE");
    expect(error.message).toBe("logo.png is a binary file (.png); read_file shows text files only.");
  });

  it("answers a missing file with E_FILE_NOT_FOUND and similar names", async () => {
    write("src/index.ts", "x");
    write("src/indexer.ts", "x");
    const error = errorOf(await read({ path: "src/indx.ts" }));
    expect(error.code).toBe("E_FILE_NOT_FOUND");
    expect(error.message).toBe("File not found: src/indx.ts. Did you mean: src/index.ts, src/indexer.ts?");
    const noDirectory = errorOf(await read({ path: "nowhere/file.ts" }));
    expect(noDirectory.message).toBe(
      "File not found: nowhere/file.ts (its directory nowhere does not exist either).",
    );
  });

  it("points to list_directory for a directory", async () => {
    mkdirSync(path.join(bed.projectRoot, "src"));
    const error = errorOf(await read({ path: "src" }));
    expect(error.code).toBe("E_INVALID_ARGS");
    expect(error.message).toContain("list_directory");
  });

  it("refuses paths outside the project", async () => {
    writeFileSync(path.join(bed.outside, "secret.txt"), "secret");
    expect(errorOf(await read({ path: "../outside/secret.txt" })).code).toBe("E_PATH_TRAVERSAL");
  });

  it("may read spilled tool output, but nothing else of LATHE_HOME", async () => {
    const spill = path.join(bed.latheHome, "tool-output", "session-1", "call-7.txt");
    mkdirSync(path.dirname(spill), { recursive: true });
    writeFileSync(spill, "spilled\n");
    expect(outputOf(await read({ path: spill }))).toBe("     1|spilled");
    writeFileSync(path.join(bed.latheHome, "credentials.json"), "{}");
    const error = errorOf(await read({ path: path.join(bed.latheHome, "credentials.json") }));
    expect(error.code).toBe("E_PATH_TRAVERSAL");
  });

  it("notes the read for stale-write checks", async () => {
    const absolute = write("noted.txt", "x\n");
    expect(await bed.ledger.checkFresh(absolute)).toBe("never_read");
    await read({ path: "noted.txt" });
    expect(await bed.ledger.checkFresh(absolute)).toBe("fresh");
  });
});

describe("read_file in an editor that shares its buffers", () => {
  /** An editor holding `text` for every file it is asked about, which records the questions. */
  const editor = (text: string | undefined) => {
    const asked: string[] = [];
    return {
      asked,
      buffers: {
        async read(absPath: string) {
          asked.push(absPath);
          return text;
        },
      },
    };
  };

  it("shows the editor's unsaved text, says so, and notes the disk's state for later writes", async () => {
    const file = write("a.txt", "alpha\nbeta\n");
    const { asked, buffers } = editor("alpha\nBETA typed\ngamma\n");
    const context = bed.context({ editorBuffers: buffers });
    const result = await readFileTool.execute({ path: "a.txt", offset: 2 }, context);
    expect(outputOf(result)).toBe(
      [
        "     2|BETA typed",
        "     3|gamma",
        "[Lines 2-3 of 3; end of file.]",
        "[This is a.txt as open in the editor, with changes not saved to disk yet.]",
      ].join("\n"),
    );
    expect(asked).toEqual([file]);
    expect(await context.fileReads.checkFresh(file)).toBe("fresh");
  });

  it("shows the disk's text, without a note, when the editor has the same or nothing", async () => {
    write("a.txt", "alpha\n");
    for (const text of ["alpha\n", undefined]) {
      const { buffers } = editor(text);
      const result = await readFileTool.execute({ path: "a.txt" }, bed.context({ editorBuffers: buffers }));
      expect(outputOf(result)).toBe("     1|alpha");
    }
  });

  it("does not ask the editor about a path the guard refuses", async () => {
    const { asked, buffers } = editor("secret");
    const result = await readFileTool.execute(
      { path: "../outside.txt" },
      bed.context({ editorBuffers: buffers }),
    );
    expect(errorOf(result).code).toBe("E_PATH_TRAVERSAL");
    expect(asked).toEqual([]);
  });
});
