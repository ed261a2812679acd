import type { Message, Part } from "@lathe/protocol";
import { clipToTokens } from "../tokens/clipToTokens.js";
import { countTokens } from "../tokens/countTokens.js";

/** Share of the budget for the start of the conversation when the middle has to go (the goal is usually there). */
const startShare = 0.3;
/** A newline pair between blocks, and what joining may add at a block's edge. */
const separatorTokens = 2;
const maxArgumentChars = 300;

/**
 * The messages as plain text for the summarizer, within `budgetTokens`. One message is one block;
 * a block larger than an eighth of the budget is cut so that one huge tool output cannot crowd
 * out the conversation. When the blocks still do not fit, the first ones (up to 30% of the budget)
 * and the last ones stand for the whole, with a note saying how much of the middle is left out.
 */
export function renderTranscript(messages: readonly Message[], budgetTokens: number): string {
  const blockCap = Math.max(200, Math.floor(budgetTokens / 8));
  const blocks = messages.map((message) => {
    const text = capBlock(renderMessage(message), blockCap);
    return { text, tokens: countTokens(text) + separatorTokens };
  });
  const total = blocks.reduce((sum, block) => sum + block.tokens, 0);
  if (total <= budgetTokens) return blocks.map((block) => block.text).join("\n\n");

  const noteReserve = 40;
  let used = 0;
  let head = 0;
  while (head < blocks.length && used + blocks[head]!.tokens <= budgetTokens * startShare) {
    used += blocks[head++]!.tokens;
  }
  let tail = blocks.length;
  while (tail > head && used + blocks[tail - 1]!.tokens <= budgetTokens - noteReserve) {
    used += blocks[--tail]!.tokens;
  }
  const left = blocks.slice(head, tail);
  const leftTokens = left.reduce((sum, block) => sum + block.tokens, 0);
  const note = `[… ${left.length} messages (${leftTokens.toLocaleString("en-US")} tokens) from the middle of this part of the conversation are left out …]`;
  return [...blocks.slice(0, head), { text: note }, ...blocks.slice(tail)]
    .map((block) => block.text)
    .join("\n\n");
}

function capBlock(text: string, cap: number): string {
  const clipped = clipToTokens(text, cap - 20);
  return clipped === text ? text : `${clipped}\n[… rest of this message cut …]`;
}

const headings: Record<Message["role"], string> = {
  user: "### User",
  assistant: "### Assistant",
  tool: "### Tool results",
};

function renderMessage(message: Message): string {
  const parts = message.parts.map(renderPart).filter((text) => text !== "");
  return [headings[message.role], ...parts].join("\n");
}

/** Reasoning is left out: the snapshot records what was said and done, not private thinking. */
function renderPart(part: Part): string {
  switch (part.type) {
    case "text":
      return part.text;
    case "reasoning":
      return "";
    case "tool_call": {
      const args = part.rawArguments || JSON.stringify(part.arguments ?? {});
      const shown = args.length > maxArgumentChars ? `${args.slice(0, maxArgumentChars)}…` : args;
      return `[call ${part.name} ${shown}]`;
    }
    case "tool_result":
      return `[result of ${part.name} (${part.status})]\n${part.output}`;
    case "file":
      return `[file ${part.path}]`;
    case "system_reminder":
      return `[reminder] ${part.text}`;
    case "compaction_summary":
      return `[summary of the conversation before this point]\n${part.text}`;
  }
}
