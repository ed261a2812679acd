import type * as acp from "@agentclientprotocol/sdk";
import type { ToolKind } from "@lathe/core";
import type { LatheEvent } from "@lathe/protocol";
import { callLocations, callTitle } from "./callTitles.js";
import type { EditDiffs } from "./editDiffs.js";
import type { LiveOutputs } from "./liveOutputs.js";

/** What turning a session's events into updates needs to know of the session. */
export interface UpdateSource {
  projectRoot: string;
  toolKind(name: string): ToolKind | undefined;
  /** The context window of the session's model now, in tokens. */
  contextWindow(): number;
  diffs: EditDiffs;
  outputs: LiveOutputs;
}

/** The session update a Lathe event becomes, if any: what the editor shows while a prompt runs. */
export function liveUpdate(event: LatheEvent, source: UpdateSource): acp.SessionUpdate | undefined {
  switch (event.type) {
    case "text_delta":
      return { sessionUpdate: "agent_message_chunk", content: { type: "text", text: event.delta } };
    case "reasoning_delta":
      return { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: event.delta } };
    case "tool_call_ready":
      source.diffs.noteCall(event.callId, source.toolKind(event.name), event.arguments);
      return {
        sessionUpdate: "tool_call",
        toolCallId: event.callId,
        title: callTitle(event.name, event.arguments),
        kind: source.toolKind(event.name) ?? "other",
        status: "pending",
        rawInput: event.arguments,
        locations: callLocations(event.arguments, source.projectRoot),
      };
    case "tool_executing":
      return { sessionUpdate: "tool_call_update", toolCallId: event.callId, status: "in_progress" };
    case "tool_output":
      return {
        sessionUpdate: "tool_call_update",
        toolCallId: event.callId,
        content: [
          { type: "content", content: { type: "text", text: source.outputs.add(event.callId, event.chunk) } },
        ],
      };
    case "tool_completed": {
      source.outputs.end(event.callId);
      const diff = source.diffs.diffOf(event.callId);
      return {
        sessionUpdate: "tool_call_update",
        toolCallId: event.callId,
        status: "completed",
        content: [
          ...(diff ? [diff] : []),
          { type: "content", content: { type: "text", text: event.output } },
        ],
      };
    }
    case "tool_failed":
    case "tool_blocked":
      source.outputs.end(event.callId);
      source.diffs.forget(event.callId);
      return {
        sessionUpdate: "tool_call_update",
        toolCallId: event.callId,
        status: "failed",
        content: [{ type: "content", content: { type: "text", text: event.error.message } }],
      };
    case "tool_rejected":
      source.diffs.forget(event.callId);
      return {
        sessionUpdate: "tool_call_update",
        toolCallId: event.callId,
        status: "failed",
        content: [{ type: "content", content: { type: "text", text: event.message } }],
      };
    case "usage":
      // The context is what the last request sent and got back; the cost is the session's so far.
      return {
        sessionUpdate: "usage_update",
        used: event.usage.inputTokens + event.usage.outputTokens,
        size: source.contextWindow(),
        cost: { amount: event.total.costUsd, currency: "USD" },
      };
    case "notice":
      return { sessionUpdate: "notice", severity: event.level, title: event.message };
    case "todos":
      return {
        sessionUpdate: "plan",
        // A cancelled todo is no longer part of the plan.
        entries: event.todos.flatMap((todo) =>
          todo.status === "cancelled"
            ? []
            : [{ content: todo.content, priority: "medium" as const, status: todo.status }],
        ),
      };
    default:
      return undefined;
  }
}
