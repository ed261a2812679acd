import {
  type LatheEvent,
  loopWarningNotice,
  type Message,
  type RunState,
  summarizeToolCall,
  type TodoItem,
  type ToolCallState,
  type Usage,
} from "@lathe/protocol";
import { finishedLength } from "./answerParagraphs.js";
import { commandOutput, outputTail } from "./commandOutput.js";
import type { FileDiff } from "./diffLines.js";
import { type CallOutcome, type SubagentRun, withSubagentEvent } from "./subagentProgress.js";
import { completedDiff } from "./toolDiff.js";

/** A finished tool call, as its card shows it. */
export interface CallItem {
  kind: "call";
  summary: string;
  outcome: CallOutcome;
  /** Its place among the run's calls, from 1. */
  step?: number;
  seconds?: number;
  /** A command's exit status. */
  exitCode?: number;
  /** The last lines a command printed, or why the call failed or was refused. */
  detail?: string;
  /** What an edit changed. */
  diff?: FileDiff[];
  /** The sub-agents a `task` call ran. */
  subagents?: SubagentRun[];
}

/** A finished piece of the conversation: printed once, then left to the terminal's scrollback. */
export type TranscriptItem =
  | { kind: "user"; text: string }
  | { kind: "answer"; text: string }
  /** The model's thinking: one line saying how long, or, once asked for, the whole of it. */
  | { kind: "reasoning"; text: string; seconds?: number; expanded?: boolean }
  | CallItem
  | { kind: "notice"; level: "info" | "warning" | "error"; text: string }
  | { kind: "todos"; todos: TodoItem[] };

/** A call still running, shown in the live region with the last lines of its output. */
export interface RunningCall {
  callId: string;
  name: string;
  summary: string;
  arguments: unknown;
  output: string;
  step: number;
  /** Where the scheduler has it, once it said. */
  state?: ToolCallState;
  subagents: SubagentRun[];
}

/** What the terminal shows: the finished items, and the turn still being written. */
export interface Transcript {
  /** Every finished item, oldest first; items are only ever appended. */
  items: TranscriptItem[];
  answer: string;
  reasoning: string;
  calls: RunningCall[];
  todos: TodoItem[];
  /** Messages typed during a run, waiting for it (SPEC §3). */
  queued: string[];
  state: RunState;
  iteration?: { current: number; max: number };
  total?: Usage;
  /** Input tokens of the last request: the context in use. */
  contextTokens?: number;
  /** Calls of the run so far: the next call's step is one more. */
  steps: number;
  /** When the thinking being written began (its first event's time, in ms). */
  reasoningSince?: number;
  /** The item of the thinking last shown whole, so asking again does not repeat it. */
  shownReasoning?: number;
}

export function emptyTranscript(): Transcript {
  return { items: [], answer: "", reasoning: "", calls: [], todos: [], queued: [], state: "idle", steps: 0 };
}

/** The transcript after one event of the session: pure, so each step can be checked alone. */
export function withEvent(transcript: Transcript, event: LatheEvent): Transcript {
  switch (event.type) {
    case "run_start":
      return { ...transcript, steps: 0 };
    case "text_delta":
      return settleParagraphs({
        ...settleReasoning(transcript, event.at),
        answer: transcript.answer + event.delta,
      });
    case "reasoning_delta":
      return {
        ...transcript,
        reasoning: transcript.reasoning + event.delta,
        reasoningSince: transcript.reasoningSince ?? event.at,
      };
    case "tool_call_ready":
      return withCall(settleAnswer(settleReasoning(transcript, event.at)), event);
    case "tool_call_state":
      return {
        ...transcript,
        calls: transcript.calls.map((call) =>
          call.callId === event.callId ? { ...call, state: event.state } : call,
        ),
      };
    case "tool_output":
      return {
        ...transcript,
        calls: transcript.calls.map((call) =>
          call.callId === event.callId ? { ...call, output: call.output + event.chunk } : call,
        ),
      };
    case "subagent_start":
    case "subagent_progress":
    case "subagent_step":
    case "subagent_finish":
      return { ...transcript, calls: withSubagentEvent(transcript.calls, event) };
    case "tool_completed":
      return finishCall(transcript, event.callId, (call) => completedCall(call, event));
    case "tool_failed":
      return finishCall(transcript, event.callId, () => ({
        outcome: "failed",
        detail: event.error.message,
        seconds: event.durationMs / 1000,
      }));
    case "tool_blocked":
      return finishCall(transcript, event.callId, () => ({ outcome: "failed", detail: event.error.message }));
    case "tool_rejected":
      return finishCall(transcript, event.callId, () => ({ outcome: "rejected", detail: event.message }));
    case "todos":
      return { ...transcript, todos: event.todos };
    case "usage":
      return { ...transcript, total: event.total, contextTokens: event.usage.inputTokens };
    case "turn_start":
      return { ...transcript, iteration: { current: event.iteration, max: event.maxIterations } };
    case "state_change":
      return { ...transcript, state: event.to };
    case "notice":
      return append(transcript, { kind: "notice", level: event.level, text: event.message });
    case "retry":
      return append(transcript, {
        kind: "notice",
        level: "info",
        text: `Retrying in ${Math.ceil(event.delayMs / 1000)} s: ${event.error.message}`,
      });
    case "loop_warning":
      // The cut answer ends here: the model's next one is another answer, not its continuation.
      return append(settleAnswer(settleReasoning(transcript, event.at)), {
        kind: "notice",
        level: "warning",
        text: loopWarningNotice,
      });
    case "compaction":
      return append(transcript, { kind: "notice", level: "info", text: "The context was compacted." });
    case "message_queued":
      return { ...transcript, queued: [...transcript.queued, event.text] };
    case "message_delivered": {
      const waiting = { ...transcript, queued: transcript.queued.slice(1) };
      return append(settleAnswer(settleReasoning(waiting, event.at)), { kind: "user", text: event.text });
    }
    case "message_dropped":
      return { ...transcript, queued: transcript.queued.filter((text) => text !== event.text) };
    case "run_complete":
      return endRun(settleReasoning(transcript, event.at), event.reason, event.error?.message);
    default:
      return transcript;
  }
}

/** The user's own message, as sent. */
export function withUserMessage(transcript: Transcript, text: string): Transcript {
  return append(transcript, { kind: "user", text });
}

/** A line from the terminal UI itself (a command's answer, a hint). */
export function withNotice(
  transcript: Transcript,
  text: string,
  level: "info" | "warning" | "error" = "info",
): Transcript {
  return append(transcript, { kind: "notice", level, text });
}

/**
 * The latest thinking, whole, appended once more (Ctrl+O): the transcript keeps thinking to one
 * line. Unchanged when there is none, or it was shown whole already.
 */
export function withReasoningShown(transcript: Transcript): Transcript {
  const at = transcript.items.findLastIndex((item) => item.kind === "reasoning" && !item.expanded);
  const item = transcript.items[at];
  if (item?.kind !== "reasoning" || transcript.shownReasoning === at) return transcript;
  return { ...append(transcript, { ...item, expanded: true }), shownReasoning: at };
}

/** A resumed session's conversation, as it would have been shown. */
export function fromHistory(messages: readonly Message[]): Transcript {
  const items: TranscriptItem[] = [];
  const results = new Map<string, StoredResult>();
  for (const message of messages)
    for (const part of message.parts) if (part.type === "tool_result") results.set(part.callId, part);
  for (const message of messages)
    for (const part of message.parts) {
      if (part.type === "text" && message.role === "user") items.push({ kind: "user", text: part.text });
      else if (part.type === "text" && message.role === "assistant")
        items.push({ kind: "answer", text: part.text });
      else if (part.type === "reasoning" && part.text.trim() !== "")
        items.push({ kind: "reasoning", text: part.text.trim() });
      else if (part.type === "tool_call") items.push(storedCall(part, results.get(part.callId)));
    }
  return { ...emptyTranscript(), items };
}

interface StoredResult {
  status: string;
  output: string;
  exitCode?: number;
}

/** A call of a resumed session, from the call and its result as stored. */
function storedCall(call: { name: string; arguments: unknown }, result: StoredResult | undefined): CallItem {
  const commandFailed = result?.exitCode !== undefined && result.exitCode !== 0;
  const item: CallItem = {
    kind: "call",
    summary: summarizeToolCall(call.name, call.arguments),
    outcome:
      result?.status === "success" && !commandFailed
        ? "done"
        : result?.status === "rejected"
          ? "rejected"
          : "failed",
  };
  if (result?.exitCode !== undefined) item.exitCode = result.exitCode;
  const diff = result?.status === "success" ? completedDiff(call.name, call.arguments, result.output) : [];
  if (diff.length > 0) item.diff = diff;
  return item;
}

function withCall(
  transcript: Transcript,
  event: Extract<LatheEvent, { type: "tool_call_ready" }>,
): Transcript {
  const call: RunningCall = {
    callId: event.callId,
    name: event.name,
    summary: summarizeToolCall(event.name, event.arguments),
    arguments: event.arguments,
    output: "",
    step: transcript.steps + 1,
    subagents: [],
  };
  return { ...transcript, steps: call.step, calls: [...transcript.calls, call] };
}

/** A call that ran to its end: a command's exit status and last lines, an edit's diff. */
function completedCall(
  call: RunningCall,
  event: Extract<LatheEvent, { type: "tool_completed" }>,
): Partial<CallItem> & { outcome: CallOutcome } {
  const end: Partial<CallItem> & { outcome: CallOutcome } = {
    outcome: event.exitCode !== undefined && event.exitCode !== 0 ? "failed" : "done",
    seconds: event.durationMs / 1000,
  };
  if (event.exitCode !== undefined) {
    end.exitCode = event.exitCode;
    const tail = outputTail(commandOutput(event.output));
    if (tail !== "") end.detail = tail;
  }
  const diff = completedDiff(call.name, call.arguments, event.output);
  if (diff.length > 0) end.diff = diff;
  return end;
}

function append(transcript: Transcript, item: TranscriptItem): Transcript {
  return { ...transcript, items: [...transcript.items, item] };
}

/** The thinking written so far as an item of its own, timed from its first piece to `at`. */
function settleReasoning(transcript: Transcript, at: number): Transcript {
  const settled: Transcript = { ...transcript, reasoning: "", reasoningSince: undefined };
  if (transcript.reasoning.trim() === "") return settled;
  const item: TranscriptItem = { kind: "reasoning", text: transcript.reasoning.trim() };
  if (transcript.reasoningSince !== undefined)
    item.seconds = Math.max(0, at - transcript.reasoningSince) / 1000;
  return append(settled, item);
}

/** The finished paragraphs of the answer being written, moved to the items. */
function settleParagraphs(transcript: Transcript): Transcript {
  const length = finishedLength(transcript.answer);
  if (length === 0) return transcript;
  const rest = { ...transcript, answer: transcript.answer.slice(length) };
  const finished = transcript.answer.slice(0, length).trim();
  return finished === "" ? rest : append(rest, { kind: "answer", text: finished });
}

function settleAnswer(transcript: Transcript): Transcript {
  if (transcript.answer.trim() === "") return { ...transcript, answer: "" };
  return { ...append(transcript, { kind: "answer", text: transcript.answer.trim() }), answer: "" };
}

function finishCall(
  transcript: Transcript,
  callId: string,
  end: (call: RunningCall) => Partial<CallItem> & { outcome: CallOutcome },
): Transcript {
  const call = transcript.calls.find((running) => running.callId === callId);
  if (!call) return transcript;
  const calls = transcript.calls.filter((running) => running !== call);
  const item: CallItem = { kind: "call", summary: call.summary, step: call.step, ...end(call) };
  if (call.subagents.length > 0) item.subagents = call.subagents;
  return append({ ...transcript, calls }, item);
}

function endRun(transcript: Transcript, reason: string, error: string | undefined): Transcript {
  let ended = settleAnswer(transcript);
  if (ended.todos.length > 0) ended = append(ended, { kind: "todos", todos: ended.todos });
  if (reason === "cancelled") ended = append(ended, { kind: "notice", level: "info", text: "Stopped." });
  else if (error !== undefined) ended = append(ended, { kind: "notice", level: "error", text: error });
  return { ...ended, calls: [], todos: [], iteration: undefined };
}
