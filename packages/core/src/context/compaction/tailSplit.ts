import type { Message } from "@lathe/protocol";
import { isSummaryMessage } from "./summaryMessages.js";

/**
 * Where the verbatim tail starts: about `tailFraction` of the messages' tokens, newest first.
 * The tail starts at a user or assistant message, never between a tool call and its result, and
 * the head before it must hold something besides an earlier summary. Undefined when no such
 * place exists. The search goes to older messages first (a larger tail), then to newer ones.
 */
export function tailStart(
  view: readonly Message[],
  tokensOf: (message: Message) => number,
  tailFraction: number,
): number | undefined {
  const tokens = view.map(tokensOf);
  const target = tokens.reduce((sum, t) => sum + t, 0) * tailFraction;
  let candidate = view.length;
  for (let acc = 0; candidate > 0 && acc < target; ) acc += tokens[--candidate]!;

  const splitsPair = pairCrossings(view);
  const firstAllowed = view[0] && isSummaryMessage(view[0]) ? 2 : 1;
  const allowed = (at: number) => {
    const role = view[at]!.role;
    return !splitsPair[at] && (role === "user" || role === "assistant") && !isSummaryMessage(view[at]!);
  };
  for (let at = Math.min(candidate, view.length - 1); at >= firstAllowed; at--) if (allowed(at)) return at;
  for (let at = Math.max(candidate + 1, firstAllowed); at < view.length; at++) if (allowed(at)) return at;
  return undefined;
}

/** For each index, whether a tail starting there would leave a call in the head and its result in the tail. */
function pairCrossings(view: readonly Message[]): boolean[] {
  const callAt = new Map<string, number>();
  const depth = new Array<number>(view.length + 1).fill(0);
  view.forEach((message, index) => {
    for (const part of message.parts) {
      if (part.type === "tool_call") callAt.set(part.callId, index);
      if (part.type !== "tool_result") continue;
      const call = callAt.get(part.callId);
      if (call === undefined || call >= index) continue;
      depth[call + 1]!++;
      depth[index + 1]!--;
    }
  });
  const crossing: boolean[] = [];
  let open = 0;
  for (let i = 0; i < view.length; i++) {
    open += depth[i]!;
    crossing.push(open > 0);
  }
  return crossing;
}
