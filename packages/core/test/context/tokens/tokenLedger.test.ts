import type { Message, Part } from "@lathe/protocol";
import { describe, expect, it } from "vitest";
import { countTokens } from "../../../src/context/tokens/countTokens.js";
import { TokenLedger } from "../../../src/context/tokens/tokenLedger.js";

function message(parts: Part[], id = "m1"): Message {
  return { id, sessionId: "s", role: "assistant", parts, createdAt: 1 };
}

const reminderWrapper = countTokens("<system-reminder>\n\n</system-reminder>");

describe("TokenLedger.messageTokens", () => {
  it("adds up the parts as the provider receives them, plus 4 per message", () => {
    const ledger = new TokenLedger();
    const text = "Let me read the file.";
    const args = '{"path":"src/a.ts"}';
    const parts: Part[] = [
      { type: "reasoning", text: "I should look at a.ts first." },
      { type: "text", text },
      {
        type: "tool_call",
        callId: "c1",
        providerCallId: "p1",
        name: "read_file",
        arguments: {},
        rawArguments: args,
      },
    ];
    expect(ledger.messageTokens(message(parts))).toBe(
      4 + countTokens(text) + 6 + countTokens("read_file") + countTokens(args),
    );
  });

  it("counts reasoning only when it is sent back", () => {
    const parts: Part[] = [{ type: "reasoning", text: "thinking about it" }];
    expect(new TokenLedger().messageTokens(message(parts))).toBe(4);
    expect(new TokenLedger({ includeReasoning: true }).messageTokens(message(parts))).toBe(
      4 + countTokens("thinking about it"),
    );
  });

  it("counts results, reminders, summaries and files", () => {
    const ledger = new TokenLedger();
    const output = "line one\nline two\n";
    expect(
      ledger.messageTokens(
        message([
          {
            type: "tool_result",
            callId: "c1",
            providerCallId: "p1",
            name: "read_file",
            status: "success",
            output,
          },
        ]),
      ),
    ).toBe(4 + 6 + countTokens("read_file") + countTokens(output));
    expect(ledger.messageTokens(message([{ type: "system_reminder", text: "be brief" }], "m2"))).toBe(
      4 + reminderWrapper + countTokens("be brief"),
    );
    expect(
      ledger.messageTokens(
        message([{ type: "compaction_summary", text: "## Goal", replacesThrough: "m0" }], "m3"),
      ),
    ).toBe(4 + countTokens("## Goal"));
    expect(
      ledger.messageTokens(message([{ type: "file", path: "a.png", mediaType: "image/png", data: "AAAA" }])),
    ).toBe(4 + 1600);
    expect(
      ledger.messageTokens(message([{ type: "file", path: "b.txt", mediaType: "text/plain" }], "m5")),
    ).toBe(4 + countTokens("[file: b.txt]"));
  });

  it("counts a message object once: later changes to it are not seen", () => {
    const ledger = new TokenLedger();
    const part = { type: "text" as const, text: "short" };
    const stored = message([part]);
    const first = ledger.messageTokens(stored);
    const longer = "a much longer text than before, which would count differently";
    part.text = longer;
    expect(ledger.messageTokens(stored)).toBe(first);
    // A view's rewritten copy under the same id is counted as what it holds.
    expect(ledger.messageTokens(message([{ type: "text", text: longer }]))).toBe(4 + countTokens(longer));
  });

  it("sums a history", () => {
    const ledger = new TokenLedger();
    const history = [
      message([{ type: "text", text: "one" }], "a"),
      message([{ type: "text", text: "two two" }], "b"),
    ];
    expect(ledger.historyTokens(history)).toBe(
      ledger.messageTokens(history[0]!) + ledger.messageTokens(history[1]!),
    );
    expect(ledger.historyTokens([])).toBe(0);
  });
});

describe("TokenLedger.estimateRequest and calibrate", () => {
  const system = "You are Lathe, a coding agent.";
  const toolsJson = JSON.stringify([{ name: "read_file", description: "Reads a file.", inputSchema: {} }]);
  const messages = [message([{ type: "text", text: "Fix the failing test in src/math.ts please." }])];

  it("adds system, tools, messages and 3 tokens of priming", () => {
    const ledger = new TokenLedger();
    expect(ledger.estimateRequest({ system, messages, toolsJson })).toBe(
      3 + countTokens(system) + countTokens(toolsJson) + ledger.historyTokens(messages),
    );
  });

  it("scales later estimates by the ratio the provider reported, without compounding", () => {
    const ledger = new TokenLedger();
    const raw = ledger.estimateRequest({ system, messages, toolsJson });
    ledger.calibrate(raw, Math.round(raw * 1.2));
    const calibrated = ledger.estimateRequest({ system, messages, toolsJson });
    expect(calibrated).toBe(Math.ceil(raw * ledger.ratio));
    expect(ledger.ratio).toBeCloseTo(Math.round(raw * 1.2) / raw, 10);
    // The provider agrees with the calibrated estimate: nothing changes.
    const before = ledger.ratio;
    ledger.calibrate(calibrated, calibrated);
    expect(ledger.ratio).toBe(before);
  });

  it("ignores empty reports and keeps the ratio within 0.5–3", () => {
    const ledger = new TokenLedger();
    ledger.calibrate(100, 0);
    ledger.calibrate(0, 100);
    expect(ledger.ratio).toBe(1);
    ledger.calibrate(100, 10_000);
    expect(ledger.ratio).toBe(3);
    ledger.calibrate(300, 1);
    expect(ledger.ratio).toBe(0.5);
  });
});
