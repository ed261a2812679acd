import type {
  LatheErrorInfo,
  LatheEvent,
  Message,
  Mode,
  PendingApproval,
  PendingQuestion,
  Risk,
  RunState,
  ToolCallState,
  Usage,
} from "@lathe/protocol";
import { loopWarningNotice } from "@lathe/protocol";

/** The seven states a tool card shows (SPEC §8), folded from the scheduler's finer ones. */
export type CardState =
  | "streaming"
  | "pending_approval"
  | "executing"
  | "completed"
  | "failed"
  | "rejected"
  | "skipped";

export interface UserItem {
  kind: "user";
  key: string;
  text: string;
  /** The stored message id, known from history or from the checkpoint taken for it. */
  messageId?: string;
  checkpointId?: string;
}

export interface AssistantItem {
  kind: "assistant";
  key: string;
  text: string;
  reasoning: string;
  /** Still receiving deltas. */
  streaming: boolean;
}

export interface ToolItem {
  kind: "tool";
  key: string;
  callId: string;
  name: string;
  /** Parsed arguments once complete; the raw text while they stream. */
  arguments: unknown;
  rawArguments: string;
  state: CardState;
  output: string;
  error?: LatheErrorInfo;
  /** Why it was rejected, as the user or the policy said it. */
  rejection?: string;
  risk?: Risk;
  reason?: string;
  approvalId?: string;
  /** The permission rules an "always" answer would save; none: "always" is not offered. */
  alwaysRules?: string[];
  durationMs?: number;
  /** A command's exit status; non-zero: the command failed though the call did not. */
  exitCode?: number;
  /** Position among the run's tool calls (1-based) and how many the run has made so far. */
  step: number;
  runId: string;
}

export interface NoticeItem {
  kind: "notice";
  key: string;
  level: "info" | "warning" | "error";
  text: string;
  /** Where the user fixes what the notice is about: a missing or rejected key, in Settings. */
  fix?: "settings";
}

export interface SubagentItem {
  kind: "subagent";
  key: string;
  subagentId: string;
  callId: string;
  agent: string;
  description: string;
  iterations: number;
  lastTool?: string;
  status: "running" | string;
  usage?: Usage;
  durationMs?: number;
  /** Its own transcript: each tool call once ended, each answer's text. */
  steps: SubagentStep[];
}

export type SubagentStep = Extract<LatheEvent, { type: "subagent_step" }>["step"];

/** A plan that plan mode saved under `.lathe/plans/`, which the user can run in agent mode. */
export interface PlanItem {
  kind: "plan";
  key: string;
  path: string;
  title: string;
  /** What "Run this plan" sends, once the session is in agent mode. */
  prompt: string;
}

export type ChatItem = UserItem | AssistantItem | ToolItem | NoticeItem | SubagentItem | PlanItem;

export interface TodoEntry {
  id: string;
  content: string;
  status: "pending" | "in_progress" | "completed" | "cancelled";
}

export interface StatusLine {
  state: RunState;
  iteration: number;
  maxIterations: number;
  usage: Usage;
  model?: string;
  mode: Mode;
  /**
   * How full the model's context is: its window and the request size at which history is
   * compacted (from the run's start), and what the last request and its answer used.
   */
  context?: { window: number; compactAt: number; used?: number };
  /** Why the newest run ended. */
  lastReason?: string;
}

export interface SessionView {
  sessionId: string;
  streamId?: string;
  /** The newest event seq applied (-1 before any). */
  lastSeq: number;
  items: ChatItem[];
  /** Index in `items` of each tool card and of each streaming assistant message. */
  index: Map<string, number>;
  /** Tool calls per run, for "Step N/M". */
  stepsByRun: Map<string, number>;
  todos: TodoEntry[];
  queued: string[];
  approvals: PendingApproval[];
  questions: PendingQuestion[];
  status: StatusLine;
  /** Counts the tool calls that ended in this view: each may have changed the project's files. */
  fileRevision: number;
}

const noUsage: Usage = {
  inputTokens: 0,
  outputTokens: 0,
  cachedInputTokens: 0,
  reasoningTokens: 0,
  costUsd: 0,
};

export function emptyView(sessionId: string, mode: Mode = "agent"): SessionView {
  return {
    sessionId,
    lastSeq: -1,
    items: [],
    index: new Map(),
    stepsByRun: new Map(),
    todos: [],
    queued: [],
    approvals: [],
    questions: [],
    status: { state: "idle", iteration: 0, maxIterations: 0, usage: noUsage, mode },
    fileRevision: 0,
  };
}

const resultStates: Record<string, CardState> = {
  success: "completed",
  error: "failed",
  rejected: "rejected",
  blocked: "rejected",
  cancelled: "skipped",
};

/**
 * Builds the chat from stored messages: what happened before this event stream began. Tool results
 * arrive in `tool` messages and complete the card their call opened.
 */
export function viewFromHistory(
  sessionId: string,
  messages: readonly Message[],
  mode: Mode,
  /** The checkpoint taken at each user message, by message id: those messages can be restored. */
  checkpointsByMessage: ReadonlyMap<string, string> = new Map(),
): SessionView {
  const view = emptyView(sessionId, mode);
  const add = (item: ChatItem) => {
    view.items.push(item);
    return view.items.length - 1;
  };
  let step = 0;
  for (const message of messages) {
    if (message.role === "user") {
      step = 0;
      const text = message.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
      const checkpointId = checkpointsByMessage.get(message.id);
      if (text !== "") {
        add({
          kind: "user",
          key: message.id,
          text,
          messageId: message.id,
          checkpointId,
        });
      }
      continue;
    }
    for (const part of message.parts) {
      if (part.type === "text" && message.role === "assistant") {
        add({
          kind: "assistant",
          key: `${message.id}:${view.items.length}`,
          text: part.text,
          reasoning: "",
          streaming: false,
        });
      } else if (part.type === "tool_call") {
        step += 1;
        view.index.set(
          part.callId,
          add({
            kind: "tool",
            key: part.callId,
            callId: part.callId,
            name: part.name,
            arguments: part.arguments,
            rawArguments: part.rawArguments,
            // A call without a stored result was cut off (the process stopped mid-call).
            state: "skipped",
            output: "",
            step,
            runId: "",
          }),
        );
      } else if (part.type === "tool_result") {
        const at = view.index.get(part.callId);
        const card = at === undefined ? undefined : view.items[at];
        if (card?.kind !== "tool") continue;
        view.items[at!] = {
          ...card,
          state: resultStates[part.status] ?? "completed",
          output: part.output,
          error: part.error,
          exitCode: part.exitCode,
          rejection: part.status === "rejected" ? part.output : undefined,
        };
      } else if (part.type === "compaction_summary") {
        add({
          kind: "notice",
          key: `${message.id}:summary`,
          level: "info",
          text: "Earlier conversation summarized.",
        });
      }
    }
  }
  return view;
}

const schedulerStates: Partial<Record<ToolCallState, CardState>> = {
  awaiting_approval: "pending_approval",
  executing: "executing",
  success: "completed",
  error: "failed",
  rejected: "rejected",
  cancelled: "skipped",
};

/** Cards that reached an end state keep it: a late state event cannot reopen them. */
const finalStates = new Set<CardState>(["completed", "failed", "rejected", "skipped"]);

/**
 * Applies a batch of events to a view, returning a new view. The items array is copied once per
 * batch and only the items an event touches are replaced, so the UI re-renders just those.
 */
export function applyEvents(previous: SessionView, events: readonly LatheEvent[]): SessionView {
  const view: SessionView = {
    ...previous,
    items: previous.items.slice(),
    index: new Map(previous.index),
    stepsByRun: new Map(previous.stepsByRun),
    status: { ...previous.status },
  };
  for (const event of events) {
    if (event.seq <= view.lastSeq) continue;
    view.lastSeq = event.seq;
    applyEvent(view, event);
  }
  return view;
}

function toolAt(view: SessionView, callId: string): { at: number; card: ToolItem } | undefined {
  const at = view.index.get(callId);
  if (at === undefined) return undefined;
  const card = view.items[at];
  return card?.kind === "tool" ? { at, card } : undefined;
}

function updateTool(view: SessionView, callId: string, change: (card: ToolItem) => Partial<ToolItem>): void {
  const found = toolAt(view, callId);
  if (!found) return;
  view.items[found.at] = { ...found.card, ...change(found.card) };
}

function moveTo(state: CardState) {
  return (card: ToolItem): Partial<ToolItem> => (finalStates.has(card.state) ? {} : { state });
}

function finishStreaming(view: SessionView): void {
  for (const [key, at] of view.index) {
    const item = view.items[at];
    if (item?.kind === "assistant" && item.streaming) view.items[at] = { ...item, streaming: false };
    if (item?.kind === "assistant") view.index.delete(key);
  }
}

/** The first queued message with this text leaves the queue: it was delivered or dropped. */
function dequeue(view: SessionView, text: string): void {
  const at = view.queued.indexOf(text);
  if (at >= 0) view.queued = view.queued.filter((_, i) => i !== at);
}

function applyEvent(view: SessionView, event: LatheEvent): void {
  switch (event.type) {
    case "run_start": {
      dequeue(view, event.prompt);
      view.items.push({ kind: "user", key: `run:${event.runId}`, text: event.prompt });
      view.status.mode = event.mode;
      view.status.model = event.model;
      if (event.context) view.status.context = { ...event.context, used: view.status.context?.used };
      view.status.iteration = 0;
      delete view.status.lastReason;
      return;
    }
    case "checkpoint": {
      if (event.reason !== "user_message") return;
      for (let at = view.items.length - 1; at >= 0; at--) {
        const item = view.items[at];
        if (item?.kind !== "user") continue;
        if (item.checkpointId === undefined) {
          view.items[at] = {
            ...item,
            checkpointId: event.checkpointId,
            messageId: event.messageId ?? item.messageId,
          };
        }
        return;
      }
      return;
    }
    case "state_change":
      view.status.state = event.to;
      return;
    case "turn_start":
      view.status.iteration = event.iteration;
      view.status.maxIterations = event.maxIterations;
      return;
    case "text_delta":
    case "reasoning_delta": {
      const key = `msg:${event.messageId}`;
      const at = view.index.get(key);
      const item = at === undefined ? undefined : view.items[at];
      const field = event.type === "text_delta" ? "text" : "reasoning";
      // A tool card or another message since the last delta starts a new bubble for this text.
      if (item?.kind === "assistant" && at === view.items.length - 1) {
        view.items[at] = { ...item, [field]: item[field] + event.delta };
        return;
      }
      view.items.push({
        kind: "assistant",
        key: `${key}:${view.items.length}`,
        text: field === "text" ? event.delta : "",
        reasoning: field === "reasoning" ? event.delta : "",
        streaming: true,
      });
      view.index.set(key, view.items.length - 1);
      return;
    }
    case "tool_call_start": {
      finishStreaming(view);
      const step = (view.stepsByRun.get(event.runId) ?? 0) + 1;
      view.stepsByRun.set(event.runId, step);
      view.items.push({
        kind: "tool",
        key: event.callId,
        callId: event.callId,
        name: event.name,
        arguments: undefined,
        rawArguments: "",
        state: "streaming",
        output: "",
        step,
        runId: event.runId,
      });
      view.index.set(event.callId, view.items.length - 1);
      return;
    }
    case "tool_call_delta":
      updateTool(view, event.callId, (card) => ({ rawArguments: card.rawArguments + event.delta }));
      return;
    case "tool_call_ready":
      updateTool(view, event.callId, () => ({ arguments: event.arguments }));
      return;
    case "tool_call_state": {
      const state = schedulerStates[event.state];
      if (state) updateTool(view, event.callId, moveTo(state));
      return;
    }
    case "approval_required":
      updateTool(view, event.callId, (card) => ({
        ...moveTo("pending_approval")(card),
        approvalId: event.approvalId,
        risk: event.risk,
        reason: event.reason,
        arguments: event.arguments,
        alwaysRules: event.alwaysRules ?? card.alwaysRules,
      }));
      return;
    case "tool_executing":
      updateTool(view, event.callId, moveTo("executing"));
      return;
    case "tool_output":
      updateTool(view, event.callId, (card) => ({ output: card.output + event.chunk }));
      return;
    case "tool_completed":
      view.fileRevision++;
      updateTool(view, event.callId, () => ({
        state: "completed",
        output: event.output,
        durationMs: event.durationMs,
        exitCode: event.exitCode,
      }));
      return;
    case "tool_failed":
      // A command that failed or timed out may still have written files.
      view.fileRevision++;
      // A call the user stopped did not fail: it shows as skipped, without a Retry.
      updateTool(view, event.callId, () => ({
        state: event.error.code === "E_CANCELLED" ? "skipped" : "failed",
        error: event.error,
        durationMs: event.durationMs,
      }));
      return;
    case "tool_rejected":
      updateTool(view, event.callId, () => ({ state: "rejected", rejection: event.message }));
      return;
    case "tool_blocked":
      updateTool(view, event.callId, () => ({
        state: "rejected",
        error: event.error,
        rejection: event.error.message,
      }));
      return;
    case "retry":
      view.items.push({
        kind: "notice",
        key: `retry:${event.seq}`,
        level: "warning",
        text: `${event.error.code}: ${event.error.message} — retrying in ${Math.round(event.delayMs / 1000)} s (attempt ${event.attempt}).`,
      });
      return;
    case "usage":
      view.status.usage = event.total;
      // The next request carries this one's input and its answer.
      if (view.status.context) {
        view.status.context = {
          ...view.status.context,
          used: event.usage.inputTokens + event.usage.outputTokens,
        };
      }
      return;
    case "turn_end":
      finishStreaming(view);
      return;
    case "message_queued":
      view.queued = [...view.queued, event.text];
      return;
    case "message_delivered":
      dequeue(view, event.text);
      view.items.push({ kind: "user", key: event.messageId, text: event.text, messageId: event.messageId });
      return;
    case "message_dropped":
      dequeue(view, event.text);
      view.items.push({
        kind: "notice",
        key: `dropped:${event.seq}`,
        level: "info",
        text: `Not sent, the run was stopped: ${event.text}`,
      });
      return;
    case "compaction":
      if (view.status.context) view.status.context = { ...view.status.context, used: event.tokensAfter };
      view.items.push({
        kind: "notice",
        key: `compaction:${event.seq}`,
        level: "info",
        text: `Context compacted (${event.trigger}): ${event.tokensBefore.toLocaleString("en")} → ${event.tokensAfter.toLocaleString("en")} tokens.`,
      });
      return;
    case "loop_warning":
      view.items.push({
        kind: "notice",
        key: `loop:${event.seq}`,
        level: "warning",
        text: loopWarningNotice,
      });
      return;
    case "todos":
      view.todos = event.todos;
      return;
    case "subagent_start":
      view.items.push({
        kind: "subagent",
        key: `sub:${event.subagentId}`,
        subagentId: event.subagentId,
        callId: event.callId,
        agent: event.agent,
        description: event.description,
        iterations: 0,
        status: "running",
        steps: [],
      });
      view.index.set(`sub:${event.subagentId}`, view.items.length - 1);
      return;
    case "subagent_step": {
      const at = view.index.get(`sub:${event.subagentId}`);
      const item = at === undefined ? undefined : view.items[at];
      if (item?.kind === "subagent") view.items[at!] = { ...item, steps: [...item.steps, event.step] };
      return;
    }
    case "subagent_progress":
    case "subagent_finish": {
      const at = view.index.get(`sub:${event.subagentId}`);
      const item = at === undefined ? undefined : view.items[at];
      if (item?.kind !== "subagent") return;
      view.items[at!] =
        event.type === "subagent_progress"
          ? { ...item, iterations: event.iteration, lastTool: event.tool ?? item.lastTool }
          : {
              ...item,
              status: event.status,
              iterations: event.iterations,
              usage: event.usage,
              durationMs: event.durationMs,
            };
      return;
    }
    case "user_question":
      return;
    case "plan_saved":
      view.items.push({
        kind: "plan",
        key: `plan:${event.seq}`,
        path: event.path,
        title: event.title,
        prompt: event.prompt,
      });
      return;
    case "notice":
      view.items.push({
        kind: "notice",
        key: `notice:${event.seq}`,
        level: event.level,
        text: event.message,
      });
      return;
    case "run_complete": {
      finishStreaming(view);
      view.status.state = "idle";
      view.status.lastReason = event.reason;
      // Calls the run never finished (it was stopped) end as skipped rather than spinning forever.
      for (const [, at] of view.index) {
        const item = view.items[at];
        if (item?.kind === "tool" && item.runId === event.runId && !finalStates.has(item.state)) {
          view.items[at] = { ...item, state: "skipped" };
        }
      }
      if (event.error) {
        view.items.push({
          kind: "notice",
          key: `error:${event.seq}`,
          level: "error",
          text: `${event.error.code}: ${event.error.message}`,
          ...(event.error.code === "E_LLM_AUTH" ? { fix: "settings" as const } : {}),
        });
      } else if (event.reason !== "completed") {
        view.items.push({
          kind: "notice",
          key: `end:${event.seq}`,
          level: "warning",
          text: endText(event.reason),
        });
      }
      return;
    }
  }
}

function endText(reason: string): string {
  if (reason === "cancelled") return "Stopped.";
  if (reason === "iteration_limit") return "Stopped at the iteration limit.";
  if (reason === "loop_detected") return "Stopped: the model was repeating itself.";
  return `Run ended: ${reason}.`;
}

/** The waiting approvals and questions, as the server last listed them. */
export function withPendingInput(
  view: SessionView,
  approvals: PendingApproval[],
  questions: PendingQuestion[],
): SessionView {
  return { ...view, approvals, questions };
}
