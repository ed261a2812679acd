import { errorInfo, type Message } from "@lathe/protocol";
import { largestFitting } from "../dynamic/contextText.js";
import type { Mention } from "./mention.js";
import type { MentionOutcome, ResolverContext } from "./mentionSources.js";

/**
 * `@chat <session id or prefix>`: what the user and the assistant said in a past session, without
 * tool calls and results (those are long, and stale by now). Over the token limit, the first
 * message (the task) and the newest ones (where it ended) are kept, the middle is left out.
 */
export async function resolveChat(mention: Mention, context: ResolverContext): Promise<MentionOutcome> {
  if (context.store === undefined) {
    const message = "Past sessions are not available here (no session store), so @chat cannot be resolved.";
    return { type: "error", error: errorInfo("E_STORAGE", message) };
  }
  const found = context.store.findSession(mention.argument);
  if (!found.ok) return { type: "error", error: found.error };
  const session = found.value;
  const turns = context.store.messages(session.id).flatMap(turnText);
  const title = `chat ${session.title === "" ? "(untitled)" : `"${session.title}"`} (${session.id})`;
  if (turns.length === 0) return { type: "attachment", title, text: "(no messages)" };

  const [first, ...rest] = turns;
  const render = (newest: number) => {
    const kept = rest.slice(rest.length - newest);
    const skipped = rest.length - newest;
    const gap =
      skipped > 0 ? [`[… ${skipped} earlier ${skipped === 1 ? "message" : "messages"} not shown]`] : [];
    return [first, ...gap, ...kept].join("\n\n");
  };
  const newest = largestFitting(rest.length, (n) => context.countTokens(render(n)) <= context.maxTokens);
  return { type: "attachment", title, text: render(Math.max(0, newest)) };
}

function turnText(message: Message): string[] {
  if (message.role !== "user" && message.role !== "assistant") return [];
  const text = message.parts
    .flatMap((part) => (part.type === "text" ? [part.text] : []))
    .join("\n")
    .trim();
  return text === "" ? [] : [`${message.role === "user" ? "User" : "Assistant"}: ${text}`];
}
