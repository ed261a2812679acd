import { newId } from "@lathe/protocol";
import { type AssistantBlock, assistantLine, streamEventLine } from "./sdkMessages.js";

/**
 * The model's answer as Claude Code sends it: each block (a run of text or of thinking, a tool
 * call) in an `assistant` message of its own once it is complete, the blocks of one model call
 * under one message id; with partial messages, their deltas as raw stream events as they come.
 */
export class AnswerBlocks {
  private open?: { kind: "text" | "thinking"; text: string };
  private messageId?: string;
  private index = 0;

  constructor(
    private readonly sessionId: string,
    private readonly model: () => string,
    private readonly out: (line: Record<string, unknown>) => void,
    private readonly partial: boolean,
  ) {}

  add(kind: "text" | "thinking", delta: string): void {
    if (this.open && this.open.kind !== kind) this.closeBlock();
    if (!this.open) {
      this.open = { kind, text: "" };
      this.streamEvent({
        type: "content_block_start",
        index: this.index,
        content_block:
          kind === "text" ? { type: "text", text: "" } : { type: "thinking", thinking: "", signature: "" },
      });
    }
    this.open.text += delta;
    this.streamEvent({
      type: "content_block_delta",
      index: this.index,
      delta:
        kind === "text" ? { type: "text_delta", text: delta } : { type: "thinking_delta", thinking: delta },
    });
  }

  toolUse(id: string, name: string, input: unknown): void {
    this.closeBlock();
    this.emit({ type: "tool_use", id, name, input });
    this.index += 1;
  }

  /** A retried model call starts its answer over: what it had sent is dropped. */
  discard(): void {
    this.open = undefined;
  }

  endTurn(): void {
    this.closeBlock();
    if (this.messageId !== undefined) this.streamEvent({ type: "message_stop" });
    this.messageId = undefined;
    this.index = 0;
  }

  private closeBlock(): void {
    const block = this.open;
    if (!block) return;
    this.open = undefined;
    this.streamEvent({ type: "content_block_stop", index: this.index });
    this.emit(
      block.kind === "text"
        ? { type: "text", text: block.text, citations: null }
        : { type: "thinking", thinking: block.text, signature: "" },
    );
    this.index += 1;
  }

  private emit(block: AssistantBlock): void {
    this.out(assistantLine(this.sessionId, this.currentMessage(), this.model(), block));
  }

  private currentMessage(): string {
    if (this.messageId === undefined) {
      this.messageId = `msg_${newId().replaceAll("-", "")}`;
      this.streamEvent(
        {
          type: "message_start",
          message: {
            id: this.messageId,
            type: "message",
            role: "assistant",
            model: this.model(),
            content: [],
          },
        },
        true,
      );
    }
    return this.messageId;
  }

  private streamEvent(event: Record<string, unknown>, starting = false): void {
    if (!this.partial) return;
    if (!starting && this.messageId === undefined) this.currentMessage();
    this.out(streamEventLine(this.sessionId, event));
  }
}
