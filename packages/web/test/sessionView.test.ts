import type { LatheEvent, Message } from "@lathe/protocol";
import { describe, expect, it } from "vitest";
import { applyEvents, emptyView, viewFromHistory } from "../src/state/sessionView.js";

const base = { sessionId: "s1", runId: "r1", at: 1000 };
let seq = 0;
const ev = (event: Record<string, unknown>): LatheEvent => ({ ...base, seq: seq++, ...event }) as LatheEvent;

describe("the session view", () => {
  it("folds a run's events into user, assistant and tool items with the seven card states", () => {
    seq = 0;
    const events = [
      ev({ type: "run_start", mode: "agent", model: "openai:gpt-4.1", prompt: "Fix it" }),
      ev({ type: "checkpoint", checkpointId: "c1", reason: "user_message", messageId: "m1", commit: "abc" }),
      ev({ type: "turn_start", iteration: 1, maxIterations: 50 }),
      ev({ type: "state_change", from: "idle", to: "streaming" }),
      ev({ type: "text_delta", messageId: "a1", delta: "Let me " }),
      ev({ type: "text_delta", messageId: "a1", delta: "look." }),
      ev({ type: "tool_call_start", callId: "t1", name: "edit_file" }),
      ev({ type: "tool_call_delta", callId: "t1", name: "edit_file", delta: '{"path":"a.ts",' }),
      ev({
        type: "tool_call_ready",
        callId: "t1",
        name: "edit_file",
        arguments: { path: "a.ts", old_string: "x", new_string: "y" },
      }),
      ev({ type: "tool_call_start", callId: "t2", name: "run_terminal_cmd" }),
      ev({
        type: "tool_call_ready",
        callId: "t2",
        name: "run_terminal_cmd",
        arguments: { command: "rm -rf build" },
      }),
      ev({
        type: "approval_required",
        callId: "t1",
        name: "edit_file",
        approvalId: "p1",
        arguments: { path: "a.ts", old_string: "x", new_string: "y" },
        risk: "medium",
        reason: "edits a file",
      }),
      ev({ type: "tool_executing", callId: "t1", name: "edit_file" }),
      ev({ type: "tool_completed", callId: "t1", name: "edit_file", output: "Edited a.ts", durationMs: 12 }),
      ev({ type: "tool_rejected", callId: "t2", name: "run_terminal_cmd", message: "not now" }),
      ev({
        type: "usage",
        usage: {},
        total: {
          inputTokens: 100,
          outputTokens: 20,
          cachedInputTokens: 0,
          reasoningTokens: 0,
          costUsd: 0.01,
        },
      }),
      ev({ type: "turn_end", iteration: 1, toolCalls: 2 }),
    ];
    const view = applyEvents(emptyView("s1"), events);
    expect(view.items.map((item) => [item.kind, "state" in item ? item.state : ""])).toEqual([
      ["user", ""],
      ["assistant", ""],
      ["tool", "completed"],
      ["tool", "rejected"],
    ]);
    const [user, assistant, edit, command] = view.items;
    expect(user).toMatchObject({ text: "Fix it", checkpointId: "c1", messageId: "m1" });
    expect(assistant).toMatchObject({ text: "Let me look.", streaming: false });
    expect(edit).toMatchObject({
      step: 1,
      durationMs: 12,
      output: "Edited a.ts",
      risk: "medium",
      approvalId: "p1",
    });
    expect(command).toMatchObject({ step: 2, rejection: "not now" });
    expect(view.stepsByRun.get("r1")).toBe(2);
    expect(view.status).toMatchObject({
      state: "streaming",
      iteration: 1,
      maxIterations: 50,
      model: "openai:gpt-4.1",
    });
    expect(view.status.usage.costUsd).toBe(0.01);
  });

  it("leaves unchanged items as the same objects, so only touched cards re-render", () => {
    seq = 0;
    const first = applyEvents(emptyView("s1"), [
      ev({ type: "run_start", mode: "agent", model: "m", prompt: "p" }),
      ev({ type: "text_delta", messageId: "a1", delta: "a" }),
    ]);
    const second = applyEvents(first, [ev({ type: "text_delta", messageId: "a1", delta: "b" })]);
    expect(second.items[0]).toBe(first.items[0]);
    expect(second.items[1]).not.toBe(first.items[1]);
    expect(second.items[1]).toMatchObject({ text: "ab", streaming: true });
    // A replayed event (seq already applied) changes nothing.
    const again = applyEvents(second, [
      { ...ev({ type: "text_delta", messageId: "a1", delta: "b" }), seq: 2 } as LatheEvent,
    ]);
    expect(again.items[1]).toMatchObject({ text: "ab" });
  });

  it("marks calls a stopped run never finished as skipped and says it stopped", () => {
    seq = 0;
    const view = applyEvents(emptyView("s1"), [
      ev({ type: "run_start", mode: "agent", model: "m", prompt: "p" }),
      ev({ type: "tool_call_start", callId: "t1", name: "run_terminal_cmd" }),
      ev({ type: "tool_executing", callId: "t1", name: "run_terminal_cmd" }),
      ev({ type: "tool_output", callId: "t1", name: "run_terminal_cmd", stream: "stdout", chunk: "1\n" }),
      ev({ type: "tool_output", callId: "t1", name: "run_terminal_cmd", stream: "stdout", chunk: "2\n" }),
      ev({
        type: "tool_failed",
        callId: "t1",
        name: "run_terminal_cmd",
        error: { code: "E_CANCELLED", message: "The command was cancelled and killed." },
        durationMs: 30,
      }),
      ev({ type: "run_complete", reason: "cancelled", iterations: 1, final: "", usage: {}, durationMs: 5 }),
    ]);
    expect(view.items[1]).toMatchObject({ kind: "tool", state: "skipped", output: "1\n2\n", durationMs: 30 });
    expect(view.items[2]).toMatchObject({ kind: "notice", level: "warning", text: "Stopped." });
    expect(view.status).toMatchObject({ state: "idle", lastReason: "cancelled" });
  });

  it("follows how full the context is: window and compaction point from the run, use from each turn", () => {
    seq = 0;
    const usage = (inputTokens: number, outputTokens: number) => ({
      inputTokens,
      outputTokens,
      cachedInputTokens: 0,
      reasoningTokens: 0,
      costUsd: 0,
    });
    const started = applyEvents(emptyView("s1"), [
      ev({
        type: "run_start",
        mode: "agent",
        model: "m",
        prompt: "p",
        context: { window: 100_000, compactAt: 80_000 },
      }),
    ]);
    expect(started.status.context).toEqual({ window: 100_000, compactAt: 80_000, used: undefined });
    const used = applyEvents(started, [
      ev({ type: "usage", usage: usage(12_000, 500), total: usage(12_000, 500) }),
    ]);
    expect(used.status.context?.used).toBe(12_500);
    const compacted = applyEvents(used, [
      ev({
        type: "compaction",
        trigger: "auto",
        tokensBefore: 85_000,
        tokensAfter: 20_000,
        prunedOutputs: 3,
        summarized: true,
        durationMs: 10,
      }),
    ]);
    expect(compacted.status.context?.used).toBe(20_000);
  });

  it("gathers a sub-agent's own steps on its card", () => {
    seq = 0;
    const view = applyEvents(emptyView("s1"), [
      ev({ type: "subagent_start", subagentId: "x", callId: "t9", agent: "explore", description: "look" }),
      ev({
        type: "subagent_step",
        subagentId: "x",
        step: {
          kind: "tool",
          callId: "c1",
          name: "read_file",
          arguments: { path: "a.ts" },
          state: "completed",
          output: "a",
        },
      }),
      ev({ type: "subagent_step", subagentId: "x", step: { kind: "text", text: "Found it." } }),
      ev({ type: "subagent_step", subagentId: "unknown", step: { kind: "text", text: "lost" } }),
    ]);
    expect(view.items).toHaveLength(1);
    expect(view.items[0]).toMatchObject({
      kind: "subagent",
      steps: [
        { kind: "tool", name: "read_file", state: "completed" },
        { kind: "text", text: "Found it." },
      ],
    });
  });

  it("keeps a command's exit status on its card, live and from the stored history", () => {
    seq = 0;
    const live = applyEvents(emptyView("s1"), [
      ev({ type: "run_start", mode: "agent", model: "m", prompt: "p" }),
      ev({ type: "tool_call_start", callId: "t1", name: "run_terminal_cmd" }),
      ev({
        type: "tool_completed",
        callId: "t1",
        name: "run_terminal_cmd",
        output: "Exit code: 2",
        durationMs: 4,
        exitCode: 2,
      }),
    ]);
    expect(live.items[1]).toMatchObject({ kind: "tool", state: "completed", exitCode: 2 });
    const stored = viewFromHistory(
      "s1",
      [
        { id: "u1", sessionId: "s1", role: "user", parts: [{ type: "text", text: "p" }], createdAt: 1 },
        {
          id: "a1",
          sessionId: "s1",
          role: "assistant",
          parts: [
            {
              type: "tool_call",
              callId: "t1",
              providerCallId: "t1",
              name: "run_terminal_cmd",
              arguments: {},
            },
          ],
          createdAt: 2,
        },
        {
          id: "r1",
          sessionId: "s1",
          role: "tool",
          parts: [
            {
              type: "tool_result",
              callId: "t1",
              providerCallId: "t1",
              name: "run_terminal_cmd",
              status: "success",
              output: "Exit code: 2",
              exitCode: 2,
            },
          ],
          createdAt: 3,
        },
      ] as Message[],
      "agent",
    );
    expect(stored.items.find((item) => item.kind === "tool")).toMatchObject({
      state: "completed",
      exitCode: 2,
    });
  });

  it("shows a queued message in the transcript when it joins the run, and drops a stopped run's", () => {
    seq = 0;
    const view = applyEvents(emptyView("s1"), [
      ev({ type: "run_start", mode: "agent", model: "m", prompt: "first" }),
      ev({ type: "message_queued", text: "also this" }),
      ev({ type: "message_queued", text: "and that" }),
      ev({ type: "turn_end", iteration: 1, toolCalls: 1 }),
      ev({ type: "message_delivered", text: "also this", messageId: "m2" }),
    ]);
    expect(view.queued).toEqual(["and that"]);
    expect(view.items.at(-1)).toEqual({ kind: "user", key: "m2", text: "also this", messageId: "m2" });
    const stopped = applyEvents(view, [
      ev({ type: "run_complete", reason: "cancelled", iterations: 1, final: "", usage: {}, durationMs: 5 }),
      ev({ type: "message_dropped", text: "and that" }),
    ]);
    expect(stopped.queued).toEqual([]);
    expect(stopped.items.at(-1)).toMatchObject({
      kind: "notice",
      level: "info",
      text: "Not sent, the run was stopped: and that",
    });
  });

  it("takes a queued message off the queue when its run starts, and follows todos and sub-agents", () => {
    seq = 0;
    const view = applyEvents(emptyView("s1"), [
      ev({ type: "message_queued", text: "next" }),
      ev({
        type: "todos",
        todos: [{ id: "1", content: "a", status: "in_progress" }],
        completed: 0,
        live: 1,
        cancelled: 0,
      }),
      ev({
        type: "subagent_start",
        subagentId: "x",
        callId: "t9",
        agent: "explore",
        description: "look around",
      }),
      ev({ type: "subagent_progress", subagentId: "x", kind: "tool", iteration: 2, tool: "read_file" }),
    ]);
    expect(view.queued).toEqual(["next"]);
    expect(view.todos).toEqual([{ id: "1", content: "a", status: "in_progress" }]);
    expect(view.items[0]).toMatchObject({
      kind: "subagent",
      iterations: 2,
      lastTool: "read_file",
      status: "running",
    });
    const started = applyEvents(view, [ev({ type: "run_start", mode: "agent", model: "m", prompt: "next" })]);
    expect(started.queued).toEqual([]);
  });

  it("rebuilds cards from stored messages, results closing their calls", () => {
    const messages: Message[] = [
      { id: "u1", sessionId: "s1", role: "user", parts: [{ type: "text", text: "Do it" }], createdAt: 1 },
      {
        id: "a1",
        sessionId: "s1",
        role: "assistant",
        parts: [
          { type: "text", text: "Sure." },
          {
            type: "tool_call",
            callId: "t1",
            providerCallId: "p",
            name: "write_file",
            arguments: { path: "x", contents: "1" },
            rawArguments: "",
          },
          {
            type: "tool_call",
            callId: "t2",
            providerCallId: "q",
            name: "run_terminal_cmd",
            arguments: { command: "ls" },
            rawArguments: "",
          },
        ],
        createdAt: 2,
      },
      {
        id: "r1",
        sessionId: "s1",
        role: "tool",
        parts: [
          {
            type: "tool_result",
            callId: "t1",
            providerCallId: "p",
            name: "write_file",
            status: "success",
            output: "ok",
          },
          {
            type: "tool_result",
            callId: "t2",
            providerCallId: "q",
            name: "run_terminal_cmd",
            status: "rejected",
            output: "no",
          },
        ],
        createdAt: 3,
      },
    ];
    const view = viewFromHistory("s1", messages, "plan", new Map([["u1", "c1"]]));
    expect(view.items.map((item) => [item.kind, "state" in item ? item.state : ""])).toEqual([
      ["user", ""],
      ["assistant", ""],
      ["tool", "completed"],
      ["tool", "rejected"],
    ]);
    expect(view.items[0]).toMatchObject({ messageId: "u1", checkpointId: "c1" });
    expect(view.items[3]).toMatchObject({ step: 2, output: "no" });
    expect(view.status.mode).toBe("plan");
  });

  it("tells the user in their words when an answer was cut off for repeating itself", () => {
    seq = 0;
    const view = applyEvents(emptyView("s1"), [
      ev({ type: "text_delta", messageId: "a1", delta: "slow slow slow" }),
      ev({
        type: "loop_warning",
        kind: "repeated_content",
        count: 3,
        message: "You are repeating yourself.",
      }),
    ]);
    const notices = view.items.filter((item) => item.kind === "notice");
    expect(notices.map((item) => item.kind === "notice" && item.text)).toEqual([
      "The answer kept repeating itself, so it was cut off; the model was told and asked again.",
    ]);
  });
});
