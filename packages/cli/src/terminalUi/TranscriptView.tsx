import type { TodoItem } from "@lathe/protocol";
import { Box, Text } from "ink";
import { MarkdownText } from "./MarkdownText.js";
import { outputTail, type RunningCall, type Transcript, type TranscriptItem } from "./transcriptModel.js";

const todoMarks: Record<TodoItem["status"], string> = {
  pending: "☐",
  in_progress: "▶",
  completed: "☑",
  cancelled: "☒",
};

/** One finished item, as it stays in the scrollback. */
export function TranscriptItemView({ item }: { item: TranscriptItem }) {
  switch (item.kind) {
    case "user":
      return (
        <Box marginTop={1}>
          <Text color="cyan">› {item.text}</Text>
        </Box>
      );
    case "answer":
      return (
        <Box marginTop={1}>
          <MarkdownText text={item.text} />
        </Box>
      );
    case "reasoning":
      return (
        <Text dimColor italic>
          {item.text}
        </Text>
      );
    case "call":
      return <CallLine item={item} />;
    case "notice":
      return (
        <Text color={item.level === "error" ? "red" : item.level === "warning" ? "yellow" : "gray"}>
          {item.text}
        </Text>
      );
    case "todos":
      return <TodoList todos={item.todos} />;
  }
}

function CallLine({ item }: { item: Extract<TranscriptItem, { kind: "call" }> }) {
  const mark = item.outcome === "done" ? "✓" : item.outcome === "rejected" ? "⊘" : "✗";
  const color = item.outcome === "done" ? "green" : item.outcome === "rejected" ? "yellow" : "red";
  const took = item.seconds !== undefined && item.seconds >= 1 ? ` (${item.seconds.toFixed(1)} s)` : "";
  return (
    <Box flexDirection="column">
      <Text>
        <Text color={color}>{mark}</Text> {item.summary}
        <Text dimColor>{took}</Text>
      </Text>
      {item.detail ? (
        <Box marginLeft={2}>
          <Text dimColor>{item.detail}</Text>
        </Box>
      ) : null}
    </Box>
  );
}

export function TodoList({ todos }: { todos: readonly TodoItem[] }) {
  return (
    <Box flexDirection="column">
      {todos.map((todo) => (
        <Text key={todo.id} dimColor={todo.status === "completed" || todo.status === "cancelled"}>
          {todoMarks[todo.status]} {todo.content}
        </Text>
      ))}
    </Box>
  );
}

/** The turn being written: thinking, the answer so far, calls running, the plan, queued messages. */
export function LiveTurn({ transcript }: { transcript: Transcript }) {
  const thinking = transcript.reasoning.trim().split("\n").slice(-3).join("\n");
  return (
    <Box flexDirection="column">
      {thinking ? (
        <Text dimColor italic>
          {thinking}
        </Text>
      ) : null}
      {transcript.answer ? (
        <Box marginTop={1}>
          <MarkdownText text={transcript.answer} />
        </Box>
      ) : null}
      {transcript.calls.map((call) => (
        <RunningCallLine key={call.callId} call={call} />
      ))}
      {transcript.todos.length > 0 ? <TodoList todos={transcript.todos} /> : null}
      {transcript.queued.length > 0 ? (
        <Text dimColor>{transcript.queued.map((text) => `Queued: ${text}`).join("\n")}</Text>
      ) : null}
    </Box>
  );
}

function RunningCallLine({ call }: { call: RunningCall }) {
  const tail = call.output ? outputTail(call.output) : "";
  return (
    <Box flexDirection="column">
      <Text>
        <Text color="yellow">⋯</Text> {call.summary}
      </Text>
      {tail ? (
        <Box marginLeft={2}>
          <Text dimColor>{tail}</Text>
        </Box>
      ) : null}
    </Box>
  );
}
