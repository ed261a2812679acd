import type * as acp from "@agentclientprotocol/sdk";
import type { ToolKind } from "@lathe/core";
import type { Message, ToolResultPart, ToolResultStatus } from "@lathe/protocol";
import { callLocations, callTitle } from "./callTitles.js";
import { proposedDiffs } from "./editDiffs.js";

/**
 * A stored conversation as the session updates an editor would have seen live (`session/load`):
 * what the user typed and the images they sent, the answer and its thinking, and each tool call
 * in its final state with its output. An edit's diff is the text it replaced and its replacement;
 * the whole file of that time is not kept. What only the model saw (system reminders, compaction
 * summaries) is left out.
 */
export function historyUpdates(
  messages: readonly Message[],
  projectRoot: string,
  toolKind: (name: string) => ToolKind | undefined,
): acp.SessionUpdate[] {
  const results = new Map<string, ToolResultPart>();
  for (const message of messages)
    for (const part of message.parts) if (part.type === "tool_result") results.set(part.callId, part);
  return messages.flatMap((message) =>
    message.parts.flatMap((part): acp.SessionUpdate[] => {
      if (part.type === "text" && message.role === "user")
        return [{ sessionUpdate: "user_message_chunk", content: { type: "text", text: part.text } }];
      if (part.type === "text" && message.role === "assistant")
        return [{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: part.text } }];
      if (part.type === "file" && message.role === "user" && part.data !== undefined)
        return [
          {
            sessionUpdate: "user_message_chunk",
            content: { type: "image", mimeType: part.mediaType, data: part.data },
          },
        ];
      if (part.type === "reasoning")
        return [{ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: part.text } }];
      if (part.type !== "tool_call") return [];
      const result = results.get(part.callId);
      return [
        {
          sessionUpdate: "tool_call",
          toolCallId: part.callId,
          title: callTitle(part.name, part.arguments),
          kind: toolKind(part.name) ?? "other",
          // A call with no result was cut short: the run that made it ended first.
          status: result ? finalStatus(result.status) : "failed",
          rawInput: part.arguments,
          locations: callLocations(part.arguments, projectRoot),
          content: [
            ...(result?.status === "success" ? editDiffs(part.arguments, projectRoot) : []),
            ...(result
              ? [{ type: "content" as const, content: { type: "text" as const, text: result.output } }]
              : []),
          ],
        },
      ];
    }),
  );
}

/** An edit's replacements; a write's old text is gone by now, so a write shows its output alone. */
function editDiffs(args: unknown, projectRoot: string): acp.ToolCallContent[] {
  const fields = args !== null && typeof args === "object" ? (args as Record<string, unknown>) : {};
  return "contents" in fields ? [] : proposedDiffs(args, projectRoot);
}

function finalStatus(status: ToolResultStatus): acp.ToolCallStatus {
  return status === "success" ? "completed" : "failed";
}
