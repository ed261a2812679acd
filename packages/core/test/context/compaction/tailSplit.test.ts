import type { Message } from "@lathe/protocol";
import { describe, expect, it } from "vitest";
import { tailStart } from "../../../src/context/compaction/tailSplit.js";
import { HistoryBuilder } from "./historyBuilder.js";

/** Every message weighs what its test says, so the split point is easy to predict. */
function weights(map: Record<string, number>): (message: Message) => number {
  return (message) => map[message.id] ?? 10;
}

describe("tailStart", () => {
  it("keeps about 30% of the tokens, newest first, starting at a user message", () => {
    const h = new HistoryBuilder().user("a").assistant("b").user("c").assistant("d").user("e").assistant("f");
    // 6 × 10 tokens: the newest 18 take two messages → the tail starts at m5 (a user message).
    expect(tailStart(h.messages, weights({}), 0.3)).toBe(4);
  });

  it("never starts the tail at a tool result: it moves back to the call", () => {
    const h = new HistoryBuilder()
      .user("a") // m1
      .toolRound("read_file", { path: "a" }, "x") // m2 call, m3 result
      .toolRound("read_file", { path: "b" }, "y") // m4 call, m5 result
      .toolRound("read_file", { path: "c" }, "z"); // m6 call, m7 result
    // 30% of 70 tokens is 21: m7 + m6 give 20, so the candidate is m5, a tool result → back to m4.
    const start = tailStart(h.messages, weights({}), 0.3);
    expect(start).toBe(3);
    expect(h.messages[start!]!.role).toBe("assistant");
  });

  it("does not split a call from a result that comes later in another message", () => {
    const h = new HistoryBuilder().user("a");
    h.messages.push(
      {
        id: "x1",
        sessionId: "s1",
        role: "assistant",
        parts: [
          {
            type: "tool_call",
            callId: "k",
            providerCallId: "k",
            name: "t",
            arguments: {},
            rawArguments: "{}",
          },
        ],
        createdAt: 2,
      },
      // A queued user message delivered between the call and its result.
      { id: "x2", sessionId: "s1", role: "user", parts: [{ type: "text", text: "also" }], createdAt: 3 },
      {
        id: "x3",
        sessionId: "s1",
        role: "tool",
        parts: [
          { type: "tool_result", callId: "k", providerCallId: "k", name: "t", status: "success", output: "" },
        ],
        createdAt: 4,
      },
      { id: "x4", sessionId: "s1", role: "assistant", parts: [{ type: "text", text: "done" }], createdAt: 5 },
    );
    // The target falls on x2, a user message, but the tail would hold x3's result without its call.
    expect(tailStart(h.messages, weights({ x4: 5, x3: 5 }), 0.4)).toBe(1);
  });

  it("looks at newer messages when no older place works, and gives up when none does", () => {
    const h = new HistoryBuilder().user("big").assistant("a").user("b");
    // 100% tail target → candidate 0, nothing older; the first allowed newer place is m2.
    expect(tailStart(h.messages, weights({}), 1)).toBe(1);
    const lone = new HistoryBuilder().user("only");
    expect(tailStart(lone.messages, weights({}), 0.3)).toBeUndefined();
  });

  it("does not count an earlier summary alone as something to summarize", () => {
    const h = new HistoryBuilder().user("a").assistant("b");
    h.summary("S", "m2"); // m3
    h.user("c"); // m4
    h.assistant("d"); // m5
    const view = [h.messages[2]!, h.messages[3]!, h.messages[4]!];
    // 100% tail → candidate index 0; the head must hold more than the summary.
    expect(tailStart(view, weights({}), 1)).toBe(2);
  });
});
