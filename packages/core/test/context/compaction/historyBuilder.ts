import type { Message, Part } from "@lathe/protocol";

/** Builds a session history with readable ids (m1, m2, …; calls c1, c2, …). */
export class HistoryBuilder {
  readonly messages: Message[] = [];
  private calls = 0;

  user(text: string): this {
    return this.push("user", [{ type: "text", text }]);
  }

  assistant(text: string): this {
    return this.push("assistant", [{ type: "text", text }]);
  }

  /** An assistant message with one call (ids c1, c2, …), then the tool message with its result. */
  toolRound(name: string, args: Record<string, unknown>, output: string, text = ""): this {
    const callId = `c${++this.calls}`;
    const parts: Part[] = text ? [{ type: "text", text }] : [];
    parts.push({
      type: "tool_call",
      callId,
      providerCallId: `p${this.calls}`,
      name,
      arguments: args,
      rawArguments: JSON.stringify(args),
    });
    this.push("assistant", parts);
    return this.push("tool", [
      { type: "tool_result", callId, providerCallId: `p${this.calls}`, name, status: "success", output },
    ]);
  }

  summary(text: string, replacesThrough: string): this {
    return this.push("user", [{ type: "compaction_summary", text, replacesThrough }]);
  }

  id(index: number): string {
    return this.messages[index]!.id;
  }

  private push(role: Message["role"], parts: Part[]): this {
    const n = this.messages.length + 1;
    this.messages.push({ id: `m${n}`, sessionId: "s1", role, parts, createdAt: n });
    return this;
  }
}

/** Deterministic filler text of roughly `words` words (distinct words, so tokens ≈ words × 1–2). */
export function filler(words: number, seed = 1): string {
  const vocabulary = [
    "alpha",
    "bravo",
    "charlie",
    "delta",
    "echo",
    "foxtrot",
    "golf",
    "hotel",
    "india",
    "juliet",
  ];
  const out: string[] = [];
  let state = seed;
  for (let i = 0; i < words; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    out.push(vocabulary[(state >>> 16) % vocabulary.length]!);
  }
  return out.join(" ");
}
