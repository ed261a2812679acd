import { errorInfo, LatheError, type LatheErrorInfo, type Message, newId } from "@lathe/protocol";
import type { ModelClient } from "../llm/modelStream.js";

const titleSystem =
  "You name coding sessions. Reply with a title of at most six words that says what the user wanted done. No quotes, no punctuation at the end, nothing else.";

/** How much of the conversation the title model reads: the start says what the session is for. */
const maxPromptChars = 4000;

/** Asks the (fast) model for a short title for a session, from what the user asked. */
export async function generateSessionTitle(
  model: ModelClient,
  messages: readonly Message[],
  signal: AbortSignal = AbortSignal.timeout(60_000),
): Promise<{ ok: true; value: string } | { ok: false; error: LatheErrorInfo }> {
  const asked = messages
    .filter((message) => message.role === "user")
    .flatMap((message) => message.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])))
    .join("\n\n")
    .slice(0, maxPromptChars);
  if (!asked.trim())
    return {
      ok: false,
      error: errorInfo("E_INVALID_ARGS", "The session has no user message to name it by."),
    };
  const request: Message = {
    id: newId(),
    sessionId: "",
    role: "user",
    parts: [{ type: "text", text: `The user's requests:\n\n${asked}` }],
    createdAt: Date.now(),
  };
  let text = "";
  try {
    for await (const event of model.stream({ system: titleSystem, messages: [request], tools: [], signal })) {
      if (event.type === "text_delta") text += event.delta;
      if (event.type === "retry") text = "";
    }
  } catch (error) {
    if (error instanceof LatheError) return { ok: false, error: error.toInfo() };
    return {
      ok: false,
      error: errorInfo("E_LLM_ERROR", error instanceof Error ? error.message : String(error)),
    };
  }
  const title = text
    .trim()
    .split("\n")[0]!
    .replace(/^["'“]+|["'”.]+$/g, "")
    .trim()
    .slice(0, 80);
  if (!title) return { ok: false, error: errorInfo("E_LLM_ERROR", `${model.modelId} gave no title.`) };
  return { ok: true, value: title };
}
