import {
  type EventDraft,
  type EventOf,
  errorInfo,
  LatheError,
  type LatheErrorInfo,
  newId,
  type Part,
  type ToolCallPart,
  type Usage,
} from "@lathe/protocol";
import type { LoopDetector } from "../context/loopDetection/index.js";
import type { ModelClient, ModelStreamEvent } from "../llm/modelStream.js";
import type { ToolRegistry } from "../tools/toolRegistry.js";
import type { PreparedRequest } from "./sessionContext.js";

export type LoopWarning = Omit<EventOf<"loop_warning">, "type" | "sessionId" | "runId" | "seq" | "at">;

/** What one model call produced; a failed stream is `error`, never an exception. */
export interface TurnOutcome {
  parts: Part[];
  text: string;
  usage?: Usage;
  error?: LatheErrorInfo;
  /** The answer was cut off because it repeated itself. */
  loopWarning?: LoopWarning;
  /** The provider stopped the answer as content it would not give (a refusal, a safety filter). */
  refused?: boolean;
}

export interface TurnRequest {
  model: ModelClient;
  prepared: PreparedRequest;
  specs: ReturnType<ToolRegistry["specs"]>;
  signal: AbortSignal;
  emit(draft: EventDraft): void;
  loop: LoopDetector;
}

/** Streams one model response into parts, announcing each delta and each call as it comes. */
export async function streamModelTurn(request: TurnRequest): Promise<TurnOutcome> {
  const turn = new TurnAssembly(request.emit, request.loop);
  const repetition = new AbortController();
  request.loop.resetAnswer();
  try {
    const stream = request.model.stream({
      system: request.prepared.system,
      messages: request.prepared.messages,
      tools: request.specs,
      signal: AbortSignal.any([request.signal, repetition.signal]),
    });
    for await (const event of stream) {
      if (turn.add(event) === "repeating") {
        repetition.abort();
        break;
      }
    }
  } catch (error) {
    if (turn.loopWarning && !request.signal.aborted)
      return { ...turn.cutShort(), loopWarning: turn.loopWarning };
    // A cancelled stream keeps nothing half-made: calls without results would break the history.
    return { ...turn.cutShort(), error: failureOf(error, request.signal) };
  }
  // Stopped for repeating itself: the text so far stands, half-streamed calls are dropped.
  return turn.loopWarning ? { ...turn.cutShort(), loopWarning: turn.loopWarning } : turn.complete();
}

function failureOf(error: unknown, signal: AbortSignal): LatheErrorInfo {
  if (signal.aborted) return errorInfo("E_CANCELLED", "Cancelled by the user.");
  if (error instanceof LatheError) return error.toInfo();
  return errorInfo("E_LLM_ERROR", error instanceof Error ? error.message : String(error));
}

/** One response as it streams in: its text, reasoning and calls, matched to the ids we gave them. */
class TurnAssembly {
  private readonly messageId = newId();
  private text = "";
  private reasoning = "";
  private calls: ToolCallPart[] = [];
  // Provider ids may repeat or be missing, so streamed calls are matched to their start in order.
  private started: { callId: string; providerCallId: string; name: string }[] = [];
  private usage: Usage | undefined;
  private refused = false;
  loopWarning: LoopWarning | undefined;

  constructor(
    private readonly emit: (draft: EventDraft) => void,
    private readonly loop: LoopDetector,
  ) {}

  add(event: ModelStreamEvent): "repeating" | undefined {
    switch (event.type) {
      case "text_delta":
        return this.addText(event.delta);
      case "reasoning_delta":
        this.reasoning += event.delta;
        this.emit({ type: "reasoning_delta", messageId: this.messageId, delta: event.delta });
        return undefined;
      case "tool_call_start": {
        const entry = { callId: newId(), providerCallId: event.providerCallId, name: event.name };
        this.started.push(entry);
        this.emit({ type: "tool_call_start", callId: entry.callId, name: entry.name });
        return undefined;
      }
      case "tool_call_delta": {
        const entry = this.started.findLast((s) => s.providerCallId === event.providerCallId);
        if (entry)
          this.emit({ type: "tool_call_delta", callId: entry.callId, name: entry.name, delta: event.delta });
        return undefined;
      }
      case "tool_call":
        this.addCall(event);
        return undefined;
      case "retry":
        this.text = "";
        this.reasoning = "";
        this.calls = [];
        this.started = [];
        this.emit({ type: "retry", attempt: event.attempt, delayMs: event.delayMs, error: event.error });
        return undefined;
      case "finish":
        this.usage = event.usage;
        this.refused = event.finishReason === "content-filter";
        return undefined;
    }
  }

  private addText(delta: string): "repeating" | undefined {
    this.text += delta;
    this.emit({ type: "text_delta", messageId: this.messageId, delta });
    const verdict = this.loop.recordText(delta);
    if (verdict.action !== "abort_stream") return undefined;
    // The answer is repeating itself: keep what came before, stop the stream, warn the model.
    this.loopWarning = { kind: verdict.kind, count: verdict.count, message: verdict.message };
    return "repeating";
  }

  private addCall(event: Extract<ModelStreamEvent, { type: "tool_call" }>): void {
    const index = this.started.findIndex(
      (s) => s.providerCallId === event.providerCallId && s.name === event.name,
    );
    const entry = index >= 0 ? this.started.splice(index, 1)[0]! : undefined;
    const callId = entry?.callId ?? newId();
    if (!entry) this.emit({ type: "tool_call_start", callId, name: event.name });
    const args = parseArguments(event.rawArguments);
    this.calls.push({
      type: "tool_call",
      callId,
      providerCallId: event.providerCallId,
      name: event.name,
      arguments: args,
      rawArguments: event.rawArguments,
    });
    this.emit({ type: "tool_call_ready", callId, name: event.name, arguments: args });
  }

  complete(): TurnOutcome {
    const parts: Part[] = [
      ...(this.reasoning ? [{ type: "reasoning" as const, text: this.reasoning }] : []),
      ...(this.text ? [{ type: "text" as const, text: this.text }] : []),
      ...this.calls,
    ];
    return { parts, text: this.text, usage: this.usage, ...(this.refused ? { refused: true } : {}) };
  }

  /** The text so far stands; reasoning and half-streamed calls are dropped. */
  cutShort(): TurnOutcome {
    const parts: Part[] = this.text ? [{ type: "text", text: this.text }] : [];
    return { parts, text: this.text, usage: this.usage };
  }
}

function parseArguments(raw: string): unknown {
  if (raw.trim() === "") return {};
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
