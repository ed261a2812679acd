import { describe, expect, it } from "vitest";
import { renderTranscript } from "../../../src/context/compaction/transcript.js";
import { countTokens } from "../../../src/context/tokens/countTokens.js";
import { filler, HistoryBuilder } from "./historyBuilder.js";

describe("renderTranscript", () => {
  it("renders every message when they fit, reasoning left out", () => {
    const h = new HistoryBuilder()
      .user("Fix the test.")
      .toolRound("read_file", { path: "a.ts" }, "const a = 1;", "Reading.");
    h.messages[1]!.parts.unshift({ type: "reasoning", text: "secret thoughts" });
    expect(renderTranscript(h.messages, 1000)).toBe(
      [
        "### User\nFix the test.",
        '### Assistant\nReading.\n[call read_file {"path":"a.ts"}]',
        "### Tool results\n[result of read_file (success)]\nconst a = 1;",
      ].join("\n\n"),
    );
  });

  it("cuts one huge output to an eighth of the budget", () => {
    const h = new HistoryBuilder().user("go").toolRound("read_file", { path: "big.ts" }, filler(10_000));
    const text = renderTranscript(h.messages, 4000);
    expect(text).toContain("[… rest of this message cut …]");
    expect(countTokens(text)).toBeLessThanOrEqual(4000 / 8 + 60);
  });

  it("keeps the start and the end within the budget, with a note for the middle", () => {
    const h = new HistoryBuilder().user("The goal: migrate to SQLite.");
    for (let i = 0; i < 30; i++) h.assistant(`step ${i} ${filler(150, i)}`);
    const text = renderTranscript(h.messages, 2000);
    expect(countTokens(text)).toBeLessThanOrEqual(2000);
    expect(text.startsWith("### User\nThe goal: migrate to SQLite.")).toBe(true);
    expect(text).toContain("step 29 ");
    expect(text).not.toContain("step 15 ");
    expect(text).toMatch(
      /\[… \d+ messages \([\d,]+ tokens\) from the middle of this part of the conversation are left out …\]/,
    );
  });
});
