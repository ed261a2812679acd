import type {
  LanguageModelV3FilePart,
  LanguageModelV3FunctionTool,
  LanguageModelV3Message,
  LanguageModelV3Prompt,
  LanguageModelV3ReasoningPart,
  LanguageModelV3TextPart,
  LanguageModelV3ToolCallPart,
  LanguageModelV3ToolResultPart,
} from "@ai-sdk/provider";
import type { Message, Part, ToolCallPart } from "@lathe/protocol";
import type { ToolSpec } from "./modelStream.js";

export interface PromptOptions {
  /**
   * Send earlier reasoning back. Only DeepSeek needs it (its thinking mode rejects tool-call
   * turns without their reasoning, and its SDK drops what belongs to earlier user turns); the
   * other providers either ignore plain reasoning text or require signed blocks we do not keep.
   */
  keepReasoning: boolean;
  /** Images from tools (screenshots) travel in the tool result; providers that cannot take them get the text alone. */
  imagesInToolResults?: boolean;
}

type UserContent = LanguageModelV3TextPart | LanguageModelV3FilePart;
type AssistantContent = LanguageModelV3TextPart | LanguageModelV3ReasoningPart | LanguageModelV3ToolCallPart;

type Piece =
  | { role: "user"; part: UserContent }
  | { role: "assistant"; part: AssistantContent }
  | { role: "tool"; part: LanguageModelV3ToolResultPart };

/**
 * Our history → the SDK's prompt. Tool calls and results travel under ids of our own making:
 * provider ids may repeat within a response or be missing, and ours always pair a result with its
 * call. On the wire they are short (`call_1`, `call_2`… in the order of the history) rather than
 * our 36-character ids: every request carries every call and result, and an earlier call keeps
 * its number as the history grows, so the request's prefix stays the same for prompt caches.
 */
export function toProviderPrompt(
  system: string,
  messages: Message[],
  options: PromptOptions,
): LanguageModelV3Prompt {
  const pieces: Piece[] = [];
  // Plain loops over the whole history: this runs for every request, on a history that only grows.
  const resultIds = new Set<string>();
  for (const message of messages) {
    for (const part of message.parts) if (part.type === "tool_result") resultIds.add(part.callId);
  }
  const callIds = new Set<string>();
  const wireIds = new Map<string, string>();
  const wireId = (callId: string) => {
    let id = wireIds.get(callId);
    if (id === undefined) {
      id = `call_${wireIds.size + 1}`;
      wireIds.set(callId, id);
    }
    return id;
  };
  // Screenshots weigh megabytes: only the newest message's images are sent, older ones are text.
  const imagesAt = messages.findLastIndex((m) =>
    m.parts.some((p) => p.type === "tool_result" && p.images?.length),
  );
  const textOnly = { ...options, imagesInToolResults: false };
  for (const [index, message] of messages.entries()) {
    const unanswered: ToolCallPart[] = [];
    const partOptions = index === imagesAt ? options : textOnly;
    for (const part of message.parts) {
      if (part.type === "tool_call") {
        callIds.add(part.callId);
        if (!resultIds.has(part.callId)) unanswered.push(part);
      }
      // A result whose call is gone (dropped by compaction, say) would be rejected by every provider.
      if (part.type === "tool_result" && !callIds.has(part.callId)) continue;
      const piece = toPiece(message.role, part, partOptions, wireId);
      if (piece) pieces.push(piece);
    }
    // A call persisted without its result (the run died in between) gets one, or providers refuse the history.
    for (const call of unanswered) {
      pieces.push({
        role: "tool",
        part: {
          type: "tool-result",
          toolCallId: wireId(call.callId),
          toolName: call.name,
          output: {
            type: "error-text",
            value: "No result was recorded for this call: the run was interrupted.",
          },
        },
      });
    }
  }
  const prompt: LanguageModelV3Prompt = system ? [{ role: "system", content: system }] : [];
  return prompt.concat(groupByRole(pieces));
}

function toPiece(
  role: Message["role"],
  part: Part,
  options: PromptOptions,
  wireId: (callId: string) => string,
): Piece | undefined {
  switch (part.type) {
    case "text":
      // Providers reject empty text blocks (Anthropic answers 400).
      if (part.text === "") return undefined;
      return role === "assistant"
        ? { role: "assistant", part: { type: "text", text: part.text } }
        : { role: "user", part: { type: "text", text: part.text } };
    case "reasoning":
      if (role !== "assistant" || !options.keepReasoning || part.text === "") return undefined;
      return { role: "assistant", part: { type: "reasoning", text: part.text } };
    case "tool_call":
      return {
        role: "assistant",
        part: {
          type: "tool-call",
          toolCallId: wireId(part.callId),
          toolName: part.name,
          input: toolInput(part.arguments),
        },
      };
    case "tool_result":
      return {
        role: "tool",
        part: {
          type: "tool-result",
          toolCallId: wireId(part.callId),
          toolName: part.name,
          output:
            part.status !== "success"
              ? { type: "error-text", value: part.output }
              : part.images?.length && options.imagesInToolResults
                ? {
                    type: "content",
                    value: [
                      { type: "text", text: part.output },
                      ...part.images.map((image) => ({
                        type: "image-data" as const,
                        data: image.data,
                        mediaType: image.mediaType,
                      })),
                    ],
                  }
                : { type: "text", value: part.output },
        },
      };
    case "file":
      return part.data === undefined
        ? { role: "user", part: { type: "text", text: `[file: ${part.path}]` } }
        : {
            role: "user",
            part: { type: "file", data: part.data, mediaType: part.mediaType, filename: part.path },
          };
    case "system_reminder":
      return {
        role: "user",
        part: { type: "text", text: `<system-reminder>\n${part.text}\n</system-reminder>` },
      };
    case "compaction_summary":
      return { role: "user", part: { type: "text", text: part.text } };
  }
}

/**
 * Every provider wants tool input as an object. Arguments that were not a JSON object went back
 * to the model as an error result already, which explains the failure; `{}` keeps the history valid.
 */
function toolInput(args: unknown): Record<string, unknown> {
  return typeof args === "object" && args !== null && !Array.isArray(args)
    ? (args as Record<string, unknown>)
    : {};
}

/** Consecutive pieces of one role form one message, which also keeps user/assistant turns alternating. */
function groupByRole(pieces: Piece[]): LanguageModelV3Message[] {
  const out: LanguageModelV3Message[] = [];
  for (const piece of pieces) {
    const last = out.at(-1);
    if (piece.role === "user") {
      if (last?.role === "user") last.content.push(piece.part);
      else out.push({ role: "user", content: [piece.part] });
    } else if (piece.role === "assistant") {
      if (last?.role === "assistant") last.content.push(piece.part);
      else out.push({ role: "assistant", content: [piece.part] });
    } else if (last?.role === "tool") {
      last.content.push(piece.part);
    } else {
      out.push({ role: "tool", content: [piece.part] });
    }
  }
  return out;
}

export function toProviderTools(tools: ToolSpec[]): LanguageModelV3FunctionTool[] {
  return tools.map((tool) => ({
    type: "function",
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as LanguageModelV3FunctionTool["inputSchema"],
  }));
}
