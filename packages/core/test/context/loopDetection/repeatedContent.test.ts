import { describe, expect, it } from "vitest";
import { LoopDetector } from "../../../src/context/loopDetection/loopDetector.js";
import type { LoopVerdict } from "../../../src/context/loopDetection/loopSettings.js";

/** Streams `text` in deltas of `size` characters, as a provider would; returns every non-"none" verdict. */
function stream(detector: LoopDetector, text: string, size = 7): { at: number; verdict: LoopVerdict }[] {
  const alarms: { at: number; verdict: LoopVerdict }[] = [];
  for (let at = 0; at < text.length; at += size) {
    const verdict = detector.recordText(text.slice(at, at + size));
    if (verdict.action !== "none") alarms.push({ at, verdict });
  }
  return alarms;
}

const sentence = "I will now check the configuration file again. "; // 47 characters

describe("LoopDetector: repeated content", () => {
  it("aborts an answer that repeats a 50-character chunk 10 times", () => {
    const detector = new LoopDetector();
    const text = `Let me look into this.\n\n${sentence.repeat(30)}`;
    const alarms = stream(detector, text);
    expect(alarms).toHaveLength(1);
    const { at, verdict } = alarms[0]!;
    expect(verdict).toMatchObject({ action: "abort_stream", kind: "repeated_content", count: 10 });
    expect(verdict.action !== "none" && verdict.message).toMatch(
      /^Your answer was cut off because it kept repeating the same text \(“.{40,50}” 10 times in a row\)\. Do not repeat it: continue from the last new point, or summarize what you have\.$/,
    );
    // Found once the tenth copy is complete: within a copy or two of 10 × 47 characters.
    expect(at).toBeGreaterThan(24 + 9 * sentence.length);
    expect(at).toBeLessThan(24 + 12 * sentence.length);
  });

  it("catches a short stutter and a long repeated paragraph", () => {
    expect(stream(new LoopDetector(), "ha".repeat(400))).toHaveLength(1);
    const paragraph =
      "The build failed because the module could not be resolved. Let me try to fix the import path in the test setup and run it again to see what happens next. ";
    expect(stream(new LoopDetector(), paragraph.repeat(12))).toHaveLength(1);
    expect(
      stream(new LoopDetector(), "- Checking the config file for errors once more\n".repeat(15)),
    ).toHaveLength(1);
    expect(
      stream(new LoopDetector(), "我再检查一下配置文件是否正确，然后重新运行测试。".repeat(30)),
    ).toHaveLength(1);
  });

  it("reports once per answer and again after resetAnswer", () => {
    const detector = new LoopDetector();
    expect(stream(detector, sentence.repeat(40))).toHaveLength(1);
    expect(stream(detector, sentence.repeat(40))).toHaveLength(0);
    detector.resetAnswer();
    expect(stream(detector, sentence.repeat(40))).toHaveLength(1);
  });

  it("does not fire on a long markdown table", () => {
    const rows = Array.from(
      { length: 60 },
      () => "| pending | src/context/compaction/viewForRequest.ts | — | — |",
    );
    const table = `Here is the status:\n\n| state | file | owner | note |\n| --- | --- | --- | --- |\n${rows.join("\n")}\n`;
    expect(stream(new LoopDetector(), table)).toEqual([]);
  });

  it("does not fire on code blocks, indented code or separators", () => {
    const fence = "```";
    const code = `${fence}ts\n${"    expect(result).toBe(true); // the same assertion\n".repeat(40)}${fence}\n`;
    const indented = "    return value; // indented code line repeated here\n".repeat(40);
    const rules = `${"-".repeat(80)}\n${"=".repeat(80)}\n`.repeat(20) + ". . . . . . . . . . ".repeat(40);
    const detector = new LoopDetector();
    expect(stream(detector, `Some code:\n\n${code}\nAnd more:\n\n${indented}\n${rules}`)).toEqual([]);
  });

  it("does not fire on prose that repeats a long phrase among different text", () => {
    const items = Array.from(
      { length: 30 },
      (_, i) =>
        `- Updated packages/core/src/context/compaction/viewForRequest.ts to handle case ${i} (${"xyz".repeat(i % 5)})`,
    );
    expect(stream(new LoopDetector(), `Changes:\n${items.join("\n")}\n`)).toEqual([]);
  });

  it("is off when the count is 1 or less", () => {
    expect(stream(new LoopDetector({ repeatedChunkCount: 0 }), sentence.repeat(40))).toEqual([]);
  });
});
