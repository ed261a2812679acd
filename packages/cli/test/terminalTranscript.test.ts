import type { LatheEvent } from "@lathe/protocol";
import { describe, expect, it } from "vitest";
import { approvalDetail, callTarget } from "../src/terminalUi/approvalDetail.js";
import { inlineSpans, markdownBlocks } from "../src/terminalUi/markdownBlocks.js";
import { commandNames, completeCommand, parseSlashCommand } from "../src/terminalUi/slashCommands.js";
import { emptyTranscript, withEvent } from "../src/terminalUi/transcriptModel.js";

const base = { runId: "r", sessionId: "s", seq: 0, at: 0 };
/** The transcript after these events, from an empty one. */
function after(events: Record<string, unknown>[]) {
  return events.reduce(
    (transcript, event) => withEvent(transcript, { ...base, ...event } as unknown as LatheEvent),
    emptyTranscript(),
  );
}

describe("the terminal transcript", () => {
  it("keeps the answer, each call and its outcome in the order they happened", () => {
    const transcript = after([
      { type: "reasoning_delta", messageId: "m", delta: "Let me look." },
      { type: "text_delta", messageId: "m", delta: "Reading it" },
      { type: "tool_call_ready", callId: "c1", name: "read_file", arguments: { path: "a.ts" } },
      { type: "tool_completed", callId: "c1", name: "read_file", output: "…", durationMs: 12 },
      { type: "tool_call_ready", callId: "c2", name: "run_terminal_cmd", arguments: { command: "npm test" } },
      { type: "tool_output", callId: "c2", name: "run_terminal_cmd", stream: "stdout", chunk: "1 failing\n" },
      {
        type: "tool_completed",
        callId: "c2",
        name: "run_terminal_cmd",
        output: "1 failing\n",
        durationMs: 2500,
        exitCode: 1,
      },
      { type: "text_delta", messageId: "m2", delta: "One test fails." },
      { type: "run_complete", reason: "completed", iterations: 2, final: "", usage: {}, durationMs: 1 },
    ]);
    expect(transcript.items).toEqual([
      { kind: "reasoning", text: "Let me look." },
      { kind: "answer", text: "Reading it" },
      { kind: "call", summary: "Reading a.ts", outcome: "done", detail: undefined, seconds: 0.012 },
      { kind: "call", summary: "Running npm test", outcome: "failed", detail: "1 failing", seconds: 2.5 },
      { kind: "answer", text: "One test fails." },
    ]);
    expect(transcript.calls).toEqual([]);
  });

  it("shows a queued message until it is delivered, then as the user's", () => {
    const queued = after([{ type: "message_queued", text: "also this" }]);
    expect(queued.queued).toEqual(["also this"]);
    const delivered = withEvent(queued, {
      ...base,
      type: "message_delivered",
      text: "also this",
      messageId: "m",
    });
    expect(delivered.queued).toEqual([]);
    expect(delivered.items.at(-1)).toEqual({ kind: "user", text: "also this" });
  });

  it("says a cancelled run stopped, and keeps the plan it had", () => {
    const transcript = after([
      { type: "todos", todos: [{ id: "1", content: "Fix it", status: "in_progress" }] },
      { type: "run_complete", reason: "cancelled", iterations: 1, final: "", usage: {}, durationMs: 1 },
    ]);
    expect(transcript.items).toEqual([
      { kind: "todos", todos: [{ id: "1", content: "Fix it", status: "in_progress" }] },
      { kind: "notice", level: "info", text: "Stopped." },
    ]);
    expect(transcript.todos).toEqual([]);
  });
});

describe("slash commands", () => {
  const cases: [line: string, custom: string[], expected: ReturnType<typeof parseSlashCommand>][] = [
    ["/help", [], { kind: "help" }],
    ["/compact keep the API", [], { kind: "compact", focus: "keep the API" }],
    ["/model openai:gpt-4.1-mini", [], { kind: "model", value: "openai:gpt-4.1-mini" }],
    ["/mode", [], { kind: "mode" }],
    ["/explain the cache", ["explain"], { kind: "send" }],
    ["/mcp__github__review 12", [], { kind: "send" }],
    ["/nonsense", [], { kind: "unknown", name: "nonsense" }],
    ["fix /etc/hosts parsing", [], undefined],
  ];
  for (const [line, custom, expected] of cases)
    it(JSON.stringify(line), () => {
      expect(parseSlashCommand(line, custom)).toEqual(expected);
    });
});

describe("approval details", () => {
  it("shows a command as typed, an edit as removed and added lines, a write as added lines", () => {
    expect(approvalDetail({ command: "npm test" })).toBe("$ npm test");
    expect(approvalDetail({ path: "a.ts", old_string: "const a = 1;", new_string: "const a = 2;" })).toBe(
      "- const a = 1;\n+ const a = 2;",
    );
    expect(approvalDetail({ path: "b.md", contents: "one\ntwo\n" })).toBe("+ one\n+ two");
    expect(
      approvalDetail({ path: "big.txt", contents: "x\n".repeat(25) })
        .split("\n")
        .at(-1),
    ).toBe("… 5 more lines");
    expect(callTarget({ path: "a.ts" })).toBe("a.ts");
    expect(callTarget({ query: "nothing to name" })).toBe("");
  });
});

describe("markdown in the terminal", () => {
  it("turns an answer into headings, items, code and marked spans", () => {
    expect(
      markdownBlocks("# Plan\n\n- read **a.ts**\n  1. then `b`\n```ts\nconst x = 1;\n```\nDone *now*."),
    ).toEqual([
      { kind: "heading", spans: [{ text: "Plan" }] },
      { kind: "blank" },
      { kind: "item", depth: 0, marker: "•", spans: [{ text: "read " }, { text: "a.ts", bold: true }] },
      { kind: "item", depth: 1, marker: "1.", spans: [{ text: "then " }, { text: "b", code: true }] },
      { kind: "code", text: "const x = 1;" },
      { kind: "paragraph", spans: [{ text: "Done " }, { text: "now", italic: true }, { text: "." }] },
    ]);
  });

  it("shows a fence still streaming as code, and leaves unclosed marks as typed", () => {
    expect(markdownBlocks("```\nhalf")).toEqual([{ kind: "code", text: "half" }]);
    expect(inlineSpans("2 * 3 and **open")).toEqual([{ text: "2 * 3 and **open" }]);
  });
});

describe("slash command completion", () => {
  const names = commandNames(["explain", "explore"]);
  const cases: [typed: string, line: string, fits: string[]][] = [
    ["/he", "/help ", ["help"]],
    ["/ex", "/ex", ["exit", "explain", "explore"]],
    ["/expla", "/explain ", ["explain"]],
    ["/zz", "/zz", []],
    ["/help me", "/help me", []],
  ];
  for (const [typed, line, fits] of cases)
    it(JSON.stringify(typed), () => {
      expect(completeCommand(typed, names)).toEqual({ line, fits });
    });
});
