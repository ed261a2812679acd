import {
  type LatheEvent,
  type Message,
  type RunState,
  summarizeToolCall,
  type TodoItem,
  type Usage,
} from "@lathe/protocol";

/** A finished piece of the conversation: printed once, then left to the terminal's scrollback. */
export type TranscriptItem =
  | { kind: "user"; text: string }
  | { kind: "answer"; text: string }
  | { kind: "reasoning"; text: string }
  | {
      kind: "call";
      summary: string;
      outcome: "done" | "failed" | "rejected";
      detail?: string;
      seconds?: number;
    }
  | { kind: "notice"; level: "info" | "warning" | "error"; text: string }
  | { kind: "todos"; todos: TodoItem[] };

/** A call still running, shown in the live region with the last lines of its output. */
export interface RunningCall {
  callId: string;
  name: string;
  summary: string;
  output: string;
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
}

export function emptyTranscript(): Transcript {
  return { items: [], answer: "", reasoning: "", calls: [], todos: [], queued: [], state: "idle" };
}

/** Lines of a running command's output kept in view. */
const outputTailLines = 5;

/** The transcript after one event of the session: pure, so each step can be checked alone. */
export function withEvent(transcript: Transcript, event: LatheEvent): Transcript {
  switch (event.type) {
    case "text_delta":
      return { ...settleReasoning(transcript), answer: transcript.answer + event.delta };
    case "reasoning_delta":
      return { ...transcript, reasoning: transcript.reasoning + event.delta };
    case "tool_call_ready": {
      const settled = settleAnswer(settleReasoning(transcript));
      const summary = summarizeToolCall(event.name, event.arguments);
      return {
        ...settled,
        calls: [...settled.calls, { callId: event.callId, name: event.name, summary, output: "" }],
      };
    }
    case "tool_output":
      return {
        ...transcript,
        calls: transcript.calls.map((call) =>
          call.callId === event.callId ? { ...call, output: call.output + event.chunk } : call,
        ),
      };
    case "tool_completed":
      return finishCall(transcript, event.callId, {
        outcome: event.exitCode !== undefined && event.exitCode !== 0 ? "failed" : "done",
        detail: event.exitCode === undefined ? undefined : outputTail(event.output),
        seconds: event.durationMs / 1000,
      });
    case "tool_failed":
      return finishCall(transcript, event.callId, {
        outcome: "failed",
        detail: event.error.message,
        seconds: event.durationMs / 1000,
      });
    case "tool_blocked":
      return finishCall(transcript, event.callId, { outcome: "failed", detail: event.error.message });
    case "tool_rejected":
      return finishCall(transcript, event.callId, { outcome: "rejected", detail: event.message });
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
    case "compaction":
      return append(transcript, { kind: "notice", level: "info", text: "The context was compacted." });
    case "message_queued":
      return { ...transcript, queued: [...transcript.queued, event.text] };
    case "message_delivered":
      return append(settleAnswer(settleReasoning({ ...transcript, queued: transcript.queued.slice(1) })), {
        kind: "user",
        text: event.text,
      });
    case "message_dropped":
      return { ...transcript, queued: transcript.queued.filter((text) => text !== event.text) };
    case "run_complete":
      return endRun(transcript, event.reason, event.error?.message);
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
  level: "info" | "warning" = "info",
): Transcript {
  return append(transcript, { kind: "notice", level, text });
}

/** A resumed session's conversation, as it would have been shown. */
export function fromHistory(messages: readonly Message[]): Transcript {
  const items: TranscriptItem[] = [];
  const results = new Map<string, { status: string; output: string }>();
  for (const message of messages)
    for (const part of message.parts) if (part.type === "tool_result") results.set(part.callId, part);
  for (const message of messages)
    for (const part of message.parts) {
      if (part.type === "text" && message.role === "user") items.push({ kind: "user", text: part.text });
      else if (part.type === "text" && message.role === "assistant")
        items.push({ kind: "answer", text: part.text });
      else if (part.type === "tool_call") {
        const result = results.get(part.callId);
        items.push({
          kind: "call",
          summary: summarizeToolCall(part.name, part.arguments),
          outcome:
            result?.status === "success" ? "done" : result?.status === "rejected" ? "rejected" : "failed",
        });
      }
    }
  return { ...emptyTranscript(), items };
}

function append(transcript: Transcript, item: TranscriptItem): Transcript {
  return { ...transcript, items: [...transcript.items, item] };
}

function settleReasoning(transcript: Transcript): Transcript {
  if (transcript.reasoning.trim() === "") return { ...transcript, reasoning: "" };
  return { ...append(transcript, { kind: "reasoning", text: transcript.reasoning.trim() }), reasoning: "" };
}

function settleAnswer(transcript: Transcript): Transcript {
  if (transcript.answer.trim() === "") return { ...transcript, answer: "" };
  return { ...append(transcript, { kind: "answer", text: transcript.answer.trim() }), answer: "" };
}

function finishCall(
  transcript: Transcript,
  callId: string,
  end: { outcome: "done" | "failed" | "rejected"; detail?: string; seconds?: number },
): Transcript {
  const call = transcript.calls.find((running) => running.callId === callId);
  if (!call) return transcript;
  const calls = transcript.calls.filter((running) => running !== call);
  return append({ ...transcript, calls }, { kind: "call", summary: call.summary, ...end });
}

function endRun(transcript: Transcript, reason: string, error: string | undefined): Transcript {
  let ended = settleAnswer(settleReasoning(transcript));
  if (ended.todos.length > 0) ended = append(ended, { kind: "todos", todos: ended.todos });
  if (reason === "cancelled") ended = append(ended, { kind: "notice", level: "info", text: "Stopped." });
  else if (error !== undefined) ended = append(ended, { kind: "notice", level: "error", text: error });
  return { ...ended, calls: [], todos: [], iteration: undefined };
}

/** The last lines of a command's output. */
export function outputTail(output: string, lines = outputTailLines): string {
  const all = output.replace(/\s+$/, "").split("\n");
  return all.slice(-lines).join("\n");
}
