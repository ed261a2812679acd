import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { capOutput, spillPathFor } from "../../src/tools/outputCap.js";
import { createToolTestBed, type ToolTestBed } from "./toolTestContext.js";

let bed: ToolTestBed;
beforeEach(() => {
  bed = createToolTestBed();
});
afterEach(() => bed.cleanup());

const numberedLines = (count: number) => Array.from({ length: count }, (_, index) => `line ${index + 1}`);
const spill = () => ({ latheHome: bed.latheHome, sessionId: "session-1", callId: "call-1" });

describe("capOutput", () => {
  it("returns text within the limits untouched and saves nothing", async () => {
    const text = `${numberedLines(10).join("\n")}\n`;
    const result = await capOutput(text, {
      limits: { maxLines: 10, maxBytes: 1000 },
      truncation: "head",
      spill: spill(),
    });
    expect(result).toEqual({ text, truncated: false });
    expect(existsSync(path.join(bed.latheHome, "tool-output"))).toBe(false);
  });

  it("keeps the first lines under 'head' and saves the full text", async () => {
    const text = numberedLines(100).join("\n");
    const result = await capOutput(text, {
      limits: { maxLines: 10, maxBytes: 100_000 },
      truncation: "head",
      spill: spill(),
    });
    const spillPath = path.join(bed.latheHome, "tool-output", "session-1", "call-1.txt");
    expect(result.truncated).toBe(true);
    expect(result.spillPath).toBe(spillPath);
    const lines = result.text.split("\n");
    expect(lines.slice(0, 10)).toEqual(numberedLines(10));
    expect(lines).toHaveLength(11);
    const note = lines[10] ?? "";
    expect(note).toContain("90 lines");
    expect(note).toContain(
      `${Buffer.byteLength(text) - Buffer.byteLength(numberedLines(10).join("\n"))} bytes`,
    );
    expect(note).toContain(spillPath);
    expect(note).toContain("read_file");
    expect(note).toContain("offset 11");
    expect(readFileSync(spillPath, "utf8")).toBe(text);
    expect(readdirSync(path.dirname(spillPath))).toEqual(["call-1.txt"]);
  });

  it("keeps the first 20% and last 80% of the kept lines under 'head_tail'", async () => {
    const text = `${numberedLines(100).join("\n")}\n`;
    const result = await capOutput(text, {
      limits: { maxLines: 10, maxBytes: 100_000 },
      truncation: "head_tail",
      spill: spill(),
    });
    const lines = result.text.split("\n");
    expect(lines.slice(0, 2)).toEqual(["line 1", "line 2"]);
    expect(lines.slice(3)).toEqual(numberedLines(100).slice(92));
    expect(lines[2]).toContain("90 lines");
    expect(lines[2]).toContain("from line 3");
    expect(lines[2]).toContain(spillPathFor(spill()));
    expect(readFileSync(spillPathFor(spill()), "utf8")).toBe(text);
  });

  it("cuts by bytes when the byte limit binds first", async () => {
    const lines = Array.from({ length: 10 }, (_, index) => String(index).repeat(100));
    const text = lines.join("\n");
    const head = await capOutput(text, {
      limits: { maxLines: 1000, maxBytes: 500 },
      truncation: "head",
      spill: spill(),
    });
    // 4 lines of 100 bytes and 3 newlines = 403 bytes; a fifth line would make 504.
    expect(head.text.split("\n").slice(0, -1)).toEqual(lines.slice(0, 4));

    const headTail = await capOutput(text, {
      limits: { maxLines: 1000, maxBytes: 500 },
      truncation: "head_tail",
      spill: { ...spill(), callId: "call-2" },
    });
    // 100 bytes for the head (one line), 400 for the tail (three lines and two newlines).
    const kept = headTail.text.split("\n");
    expect(kept[0]).toBe(lines[0]);
    expect(kept.slice(2)).toEqual(lines.slice(7));
    expect(kept[1]).toContain("6 lines (");
  });

  it("never cuts inside a UTF-8 character", async () => {
    const text = "é".repeat(1000);
    const head = await capOutput(text, {
      limits: { maxLines: 10, maxBytes: 101 },
      truncation: "head",
      spill: spill(),
    });
    expect(head.text.split("\n")[0]).toBe("é".repeat(50));

    const headTail = await capOutput(text, {
      limits: { maxLines: 10, maxBytes: 101 },
      truncation: "head_tail",
      spill: { ...spill(), callId: "call-2" },
    });
    const [first, , last] = headTail.text.split("\n");
    // 20 bytes of head, 81 of tail (rounded down to 80 so no character is split).
    expect(first).toBe("é".repeat(10));
    expect(last).toBe("é".repeat(40));
    expect(headTail.text).not.toContain("\uFFFD");
  });

  it("says so when the full text cannot be saved", async () => {
    const text = numberedLines(20).join("\n");
    // A regular file where the home directory should be: nothing can be created below it.
    const blockedHome = path.join(bed.outside, "not-a-directory");
    writeFileSync(blockedHome, "");
    const result = await capOutput(text, {
      limits: { maxLines: 5, maxBytes: 100_000 },
      truncation: "head",
      spill: { latheHome: blockedHome, sessionId: "s", callId: "c" },
    });
    expect(result.truncated).toBe(true);
    expect(result.spillPath).toBeUndefined();
    expect(result.text).toContain("could not be saved");
  });

  it("keeps ids from escaping the spill directory", () => {
    const spillPath = spillPathFor({ latheHome: "/home/u/.lathe", sessionId: "../../etc", callId: "a/b" });
    expect(spillPath).toBe("/home/u/.lathe/tool-output/__.._etc/a_b.txt");
  });
});
