import { countTokens } from "@lathe/core";

interface ChatBody {
  messages?: { content?: unknown; tool_calls?: unknown }[];
  tools?: unknown;
}

/**
 * The size in tokens of an OpenAI chat-completions request as the model receives it: every
 * message's text and tool calls, and the tools' schemas, counted with Lathe's tokenizer.
 */
export function requestTokens(body: unknown): number {
  const chat = body as ChatBody;
  const pieces = (chat.messages ?? []).flatMap((message) => [
    typeof message.content === "string" ? message.content : JSON.stringify(message.content ?? ""),
    ...(message.tool_calls ? [JSON.stringify(message.tool_calls)] : []),
  ]);
  return countTokens([...pieces, JSON.stringify(chat.tools ?? [])].join("\n"));
}
