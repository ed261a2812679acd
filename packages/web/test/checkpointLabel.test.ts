import type { CheckpointSummary } from "@lathe/protocol";
import { describe, expect, it } from "vitest";
import { checkpointLabel } from "../src/panels/checkpointLabel.js";
import type { ChatItem } from "../src/state/sessionView.js";

const tool = (callId: string, name: string, args: unknown): ChatItem => ({
  kind: "tool",
  key: callId,
  callId,
  name,
  arguments: args,
  rawArguments: JSON.stringify(args),
  state: "completed",
  output: "",
  step: 1,
  runId: "r1",
});

const items: ChatItem[] = [
  {
    kind: "user",
    key: "m1",
    messageId: "m1",
    text: "Clean the build folder and\nthen rebuild everything from scratch, please, with tests",
  },
  tool("c1", "run_terminal_cmd", { command: "rm -r build" }),
  tool("c2", "edit_file", { path: "src/a.ts", old_string: "a\nb\n", new_string: "c\n" }),
  tool("c3", "delete_file", { path: "old.txt" }),
  tool("c4", "mcp__github__create_issue", { title: "x" }),
];

const at = (checkpoint: Partial<CheckpointSummary>): CheckpointSummary => ({
  id: "k",
  reason: "tool_call",
  commit: "abc",
  createdAt: 1,
  ...checkpoint,
});

describe("checkpoint labels", () => {
  it.each([
    [{ reason: "tool_call", callId: "c1" }, "Before `rm -r build`"],
    [{ reason: "tool_call", callId: "c2" }, "Before editing src/a.ts"],
    [{ reason: "tool_call", callId: "c3" }, "Before deleting old.txt"],
    [{ reason: "tool_call", callId: "c4" }, "Before github: create_issue"],
    [
      { reason: "user_message", messageId: "m1" },
      "Before “Clean the build folder and then rebuild everyth…”",
    ],
    [{ reason: "tool_call", callId: "gone" }, "Before tool call"],
    [{ reason: "user_message", messageId: "gone" }, "Before message"],
    [{ reason: "before_restore" }, "Before restore"],
  ] as const)("%o → %s", (checkpoint, label) => {
    expect(checkpointLabel(at(checkpoint), items)).toBe(label);
  });
});
