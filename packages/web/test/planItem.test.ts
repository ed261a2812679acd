import type { LatheEvent } from "@lathe/protocol";
import { describe, expect, it } from "vitest";
import { applyEvents, emptyView } from "../src/state/sessionView.js";

const base = { sessionId: "s1", runId: "r1", at: 1000 };

describe("a saved plan in the session view", () => {
  it("becomes a plan item after the answer, carrying what Run this plan sends", () => {
    const events = [
      { type: "run_start", mode: "plan", model: "openai:gpt-4.1", prompt: "Plan the farewell" },
      { type: "text_delta", messageId: "a1", delta: "1. Add farewell." },
      { type: "turn_end", iteration: 1, toolCalls: 0 },
      {
        type: "plan_saved",
        path: ".lathe/plans/2025-01-09-plan-the-farewell.md",
        title: "Plan the farewell",
        prompt:
          "Carry out this plan (saved in .lathe/plans/2025-01-09-plan-the-farewell.md).\n\n# Plan: Plan the farewell\n",
      },
      {
        type: "run_complete",
        reason: "completed",
        iterations: 1,
        final: "1. Add farewell.",
        usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0, costUsd: 0 },
        durationMs: 5,
      },
    ].map((event, seq) => ({ ...base, seq, ...event }) as LatheEvent);
    const view = applyEvents(emptyView("s1", "plan"), events);
    expect(view.items.map((item) => item.kind)).toEqual(["user", "assistant", "plan"]);
    expect(view.items[2]).toEqual({
      kind: "plan",
      key: "plan:3",
      path: ".lathe/plans/2025-01-09-plan-the-farewell.md",
      title: "Plan the farewell",
      prompt:
        "Carry out this plan (saved in .lathe/plans/2025-01-09-plan-the-farewell.md).\n\n# Plan: Plan the farewell\n",
    });
    expect(view.status.state).toBe("idle");
  });
});
