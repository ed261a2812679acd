import type { NewEvent } from "../tasks/taskEvents.js";

/** How a step writes to its task's log: the step, device and event id are filled in. */
export type StepLog = (event: Omit<NewEvent, "taskId" | "stepIndex" | "deviceId" | "id">) => void;

/** One stream-json line of the engine as a log line: what a person watching wants to read. */
export function describeMessage(
  message: Record<string, unknown>,
): { kind: string; text: string; data?: unknown } | undefined {
  switch (message.type) {
    case "system":
      return message.subtype === "init"
        ? { kind: "log", text: `engine started (${String(message.model ?? "model")})` }
        : undefined;
    case "assistant":
      return describeAssistant(message.message);
    case "user":
      return describeToolResults(message.message);
    case "result":
      return {
        kind: "log",
        text: `run ended: ${String(message.subtype ?? "")}${message.is_error === true ? " (error)" : ""}`,
        data: { usage: message.usage, costUsd: message.total_cost_usd, turns: message.num_turns },
      };
    default:
      return undefined;
  }
}

const maxText = 2_000;

function describeAssistant(body: unknown): { kind: string; text: string; data?: unknown } | undefined {
  const blocks = contentBlocks(body);
  const parts: string[] = [];
  for (const block of blocks) {
    if (block.type === "text" && typeof block.text === "string" && block.text.trim() !== "")
      parts.push(block.text.trim());
    if (block.type === "tool_use")
      parts.push(`→ ${String(block.name)} ${clip(JSON.stringify(block.input ?? {}), 300)}`);
  }
  return parts.length === 0 ? undefined : { kind: "log", text: clip(parts.join("\n"), maxText) };
}

function describeToolResults(body: unknown): { kind: string; text: string } | undefined {
  const parts: string[] = [];
  for (const block of contentBlocks(body)) {
    if (block.type !== "tool_result") continue;
    const text = typeof block.content === "string" ? block.content : JSON.stringify(block.content ?? "");
    parts.push(`${block.is_error === true ? "✗" : "←"} ${clip(text.split("\n")[0] ?? "", 300)}`);
  }
  return parts.length === 0 ? undefined : { kind: "log", text: parts.join("\n") };
}

function contentBlocks(body: unknown): Record<string, unknown>[] {
  const content = (body as { content?: unknown } | null)?.content;
  if (!Array.isArray(content)) return [];
  return content.filter(
    (block): block is Record<string, unknown> => block !== null && typeof block === "object",
  );
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
