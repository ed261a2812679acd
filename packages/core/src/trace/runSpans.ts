import type { EventOf, LatheEvent, SpanName, ToolCallState, Usage } from "@lathe/protocol";
import type { Attributes, Outcome, SpanHandle } from "./spanHandle.js";

/** Starts a span of this run's trace; a missing parent starts a new trace. */
export type StartSpan = (
  name: SpanName,
  parent: SpanHandle | undefined,
  at: number,
  attributes: Attributes,
) => SpanHandle;

interface ToolSpan {
  handle: SpanHandle;
  /** The terminal state once it is known; the event with the error code follows it. */
  state?: ToolCallState;
}

const terminalStates: ReadonlySet<ToolCallState> = new Set(["success", "error", "rejected", "cancelled"]);

/**
 * The spans of one run, built from its events: run → turn → llm_call / tool_call → approval.
 * Every step maps one event type to one span change, so a future event (a `compaction` event
 * would start and end a `compaction` span under the current turn) is one more case here.
 */
export class RunSpans {
  readonly runId: string;
  private readonly run: SpanHandle;
  private readonly model: string;
  private turn: SpanHandle | undefined;
  private llm: { handle: SpanHandle; retries: number } | undefined;
  private readonly tools = new Map<string, ToolSpan>();
  private readonly approvals = new Map<string, SpanHandle>();

  constructor(
    private readonly start: StartSpan,
    event: EventOf<"run_start">,
  ) {
    this.runId = event.runId;
    this.model = event.model;
    this.run = start("run", undefined, event.at, {
      "lathe.session_id": event.sessionId,
      "lathe.run_id": event.runId,
      "lathe.mode": event.mode,
      "lathe.model": event.model,
    });
  }

  get traceId(): string {
    return this.run.traceId;
  }

  /** Applies one event of this run; true once the run span has ended. */
  handle(event: LatheEvent): boolean {
    switch (event.type) {
      case "turn_start":
        this.turnStart(event);
        return false;
      case "retry":
        this.retry();
        return false;
      case "usage":
        this.usage(event);
        return false;
      case "state_change":
        this.stateChange(event);
        return false;
      case "tool_call_ready":
        this.tools.set(event.callId, {
          handle: this.start("tool_call", this.turn ?? this.run, event.at, {
            "lathe.tool.name": event.name,
            "lathe.tool.call_id": event.callId,
          }),
        });
        return false;
      case "tool_call_state":
        this.toolCallState(event);
        return false;
      case "approval_required":
        this.approvals.set(
          event.callId,
          this.start("approval", this.tools.get(event.callId)?.handle ?? this.turn ?? this.run, event.at, {
            "lathe.risk": event.risk,
          }),
        );
        return false;
      case "tool_failed":
      case "tool_blocked":
        this.finishTool(event.callId, this.toolOutcome(event.callId, event.error), event.at);
        return false;
      case "tool_rejected":
        this.finishTool(
          event.callId,
          { status: "ok", code: "E_USER_REJECTED", message: event.message },
          event.at,
        );
        return false;
      case "turn_end":
        this.turnEnd(event);
        return false;
      case "run_complete":
        this.runComplete(event);
        return true;
      default:
        return false;
    }
  }

  /** Ends every open span with `outcome` (Lathe is shutting down mid-run). */
  abort(outcome: Outcome, at: number): void {
    this.interrupt(outcome, at);
    this.run.settle(outcome);
    this.run.end(at);
  }

  private turnStart(event: EventOf<"turn_start">): void {
    // A new turn means the previous model call went well: the loop only goes on after a good one.
    this.finishLlm({ status: "ok" }, event.at);
    this.turn?.end(event.at);
    this.turn = this.start("turn", this.run, event.at, { "lathe.iteration": event.iteration });
    this.llm = {
      handle: this.start("llm_call", this.turn, event.at, {
        "gen_ai.request.model": this.model,
        "lathe.retries": 0,
      }),
      retries: 0,
    };
  }

  private retry(): void {
    if (!this.llm || this.llm.handle.ending) return;
    this.llm.retries++;
    this.llm.handle.set({ "lathe.retries": this.llm.retries });
  }

  private usage(event: EventOf<"usage">): void {
    if (!this.llm || this.llm.handle.ending) return;
    this.llm.handle.set(usageAttributes(event.usage));
    this.llm.handle.endsAt(event.at);
  }

  private stateChange(event: EventOf<"state_change">): void {
    if (event.from === "streaming") this.llm?.handle.endsAt(event.at);
    // Tool calls to run mean the model call succeeded; no later failure belongs to it.
    if (event.to === "tool_pending") this.finishLlm({ status: "ok" }, event.at);
  }

  private toolCallState(event: EventOf<"tool_call_state">): void {
    const approval = this.approvals.get(event.callId);
    if (approval && event.state !== "awaiting_approval") {
      approval.set({ "lathe.approval.decision": decision(event.state) });
      approval.end(event.at);
      this.approvals.delete(event.callId);
    }
    const tool = this.tools.get(event.callId);
    if (!tool || !terminalStates.has(event.state)) return;
    tool.state = event.state;
    tool.handle.set({ "lathe.tool.status": event.state });
    tool.handle.endsAt(event.at);
    // Success has nothing more to learn; the other endings wait for the event with their code.
    if (event.state === "success") this.finishTool(event.callId, { status: "ok" }, event.at);
  }

  private toolOutcome(callId: string, error: { code: string; message: string }): Outcome {
    const state = this.tools.get(callId)?.state;
    // Only a call that broke is an error; a rejected or cancelled one keeps its code as a note.
    const status = state === "rejected" || state === "cancelled" ? "ok" : "error";
    return { status, code: error.code, message: error.message };
  }

  private finishTool(callId: string, outcome: Outcome, at: number): void {
    const tool = this.tools.get(callId);
    if (!tool) return;
    tool.handle.settle(outcome);
    tool.handle.end(at);
    this.tools.delete(callId);
  }

  private finishLlm(outcome: Outcome, at: number): void {
    if (!this.llm) return;
    this.llm.handle.settle(outcome);
    this.llm.handle.end(at);
    this.llm = undefined;
  }

  private turnEnd(event: EventOf<"turn_end">): void {
    // The model call is over, but whether it failed is only known from the run_complete that may
    // follow, so it stays open until then (or until the next step shows it went well).
    this.llm?.handle.endsAt(event.at);
    for (const [callId, tool] of this.tools) {
      if (tool.state) this.finishTool(callId, stateOutcome(tool.state), event.at);
    }
    this.turn?.set({ "lathe.tool_calls": event.toolCalls });
    this.turn?.end(event.at);
    this.turn = undefined;
  }

  private runComplete(event: EventOf<"run_complete">): void {
    const outcome = runOutcome(event);
    this.interrupt(outcome, event.at);
    this.run.set({
      "lathe.reason": event.reason,
      "lathe.iterations": event.iterations,
      ...usageAttributes(event.usage),
    });
    this.run.settle(outcome);
    this.run.end(event.at);
  }

  /** Ends everything still open below the run, innermost first, with the run's outcome. */
  private interrupt(outcome: Outcome, at: number): void {
    for (const approval of this.approvals.values()) {
      approval.set({ "lathe.approval.decision": "cancelled" });
      approval.settle(outcome);
      approval.end(at);
    }
    this.approvals.clear();
    for (const [callId, tool] of this.tools) {
      if (!tool.state) tool.handle.set({ "lathe.tool.status": "cancelled" });
      this.finishTool(callId, tool.state ? stateOutcome(tool.state) : outcome, at);
    }
    this.finishLlm(outcome, at);
    if (this.turn) {
      this.turn.settle(outcome);
      this.turn.end(at);
      this.turn = undefined;
    }
  }
}

function usageAttributes(usage: Usage): Attributes {
  return {
    "gen_ai.usage.input_tokens": usage.inputTokens,
    "gen_ai.usage.output_tokens": usage.outputTokens,
    "lathe.cached_input_tokens": usage.cachedInputTokens,
    "lathe.reasoning_tokens": usage.reasoningTokens,
    "lathe.cost_usd": usage.costUsd,
  };
}

function decision(state: ToolCallState): string {
  if (state === "rejected" || state === "cancelled") return state;
  return "approved";
}

/** What a tool call's terminal state says when the event with its code never came. */
function stateOutcome(state: ToolCallState): Outcome {
  if (state === "rejected") return { status: "ok", code: "E_USER_REJECTED" };
  if (state === "cancelled") return { status: "ok", code: "E_CANCELLED" };
  return { status: state === "error" ? "error" : "ok" };
}

function runOutcome(event: EventOf<"run_complete">): Outcome {
  if (event.reason === "completed") return { status: "ok" };
  const message = event.error?.message;
  // Cancelling is the user's choice, not a fault: recorded like a cancelled tool call.
  if (event.reason === "cancelled")
    return { status: "ok", code: event.error?.code ?? "E_CANCELLED", message };
  return { status: "error", code: event.error?.code, message };
}
