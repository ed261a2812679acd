import type { Message, Part } from "@lathe/protocol";
import { describe, expect, it } from "vitest";
import { historyUpdates } from "../src/acp/historyReplay.js";

const root = "/project";
let sequence = 0;
const message = (role: Message["role"], parts: Part[]): Message => ({
  id: `m${++sequence}`,
  sessionId: "s",
  role,
  parts,
  createdAt: sequence,
});
const call = (callId: string, name: string, args: unknown): Part => ({
  type: "tool_call",
  callId,
  providerCallId: callId,
  name,
  arguments: args,
  rawArguments: JSON.stringify(args),
});
const result = (callId: string, name: string, status: "success" | "error", output: string): Part => ({
  type: "tool_result",
  callId,
  providerCallId: callId,
  name,
  status,
  output,
});
const kinds: Record<string, "edit" | "read" | "execute"> = {
  edit_file: "edit",
  write_file: "edit",
  read_file: "read",
  run_terminal_cmd: "execute",
};

describe("historyUpdates", () => {
  it("replays what the user and the editor saw, and leaves out what only the model saw", () => {
    const updates = historyUpdates(
      [
        message("user", [
          { type: "text", text: "Fix it" },
          { type: "file", path: "image-1.png", mediaType: "image/png", data: "iVBO" },
          { type: "system_reminder", text: "only for the model" },
        ]),
        message("assistant", [
          { type: "reasoning", text: "Thinking." },
          call("c1", "edit_file", { path: "a.ts", old_string: "1", new_string: "2" }),
          call("c2", "write_file", { path: "b.ts", contents: "new" }),
          call("c3", "run_terminal_cmd", { command: "npm test" }),
          call("c4", "read_file", { path: "c.ts", offset: 3 }),
        ]),
        message("tool", [
          result("c1", "edit_file", "success", "Edited a.ts."),
          result("c2", "write_file", "success", "Wrote b.ts."),
          result("c3", "run_terminal_cmd", "error", "E_COMMAND_TIMEOUT"),
        ]),
        message("assistant", [{ type: "text", text: "Fixed." }]),
      ],
      root,
      (name) => kinds[name],
    );
    expect(updates).toEqual([
      { sessionUpdate: "user_message_chunk", content: { type: "text", text: "Fix it" } },
      {
        sessionUpdate: "user_message_chunk",
        content: { type: "image", mimeType: "image/png", data: "iVBO" },
      },
      { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "Thinking." } },
      {
        sessionUpdate: "tool_call",
        toolCallId: "c1",
        title: "edit_file a.ts",
        kind: "edit",
        status: "completed",
        rawInput: { path: "a.ts", old_string: "1", new_string: "2" },
        locations: [{ path: "/project/a.ts" }],
        content: [
          { type: "diff", path: "/project/a.ts", oldText: "1", newText: "2" },
          { type: "content", content: { type: "text", text: "Edited a.ts." } },
        ],
      },
      // A write's old text is gone: its output alone.
      expect.objectContaining({
        toolCallId: "c2",
        status: "completed",
        content: [{ type: "content", content: { type: "text", text: "Wrote b.ts." } }],
      }),
      expect.objectContaining({ toolCallId: "c3", title: "npm test", kind: "execute", status: "failed" }),
      // No result: the run ended before the call did.
      expect.objectContaining({
        toolCallId: "c4",
        status: "failed",
        locations: [{ path: "/project/c.ts", line: 3 }],
        content: [],
      }),
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Fixed." } },
    ]);
  });
});
