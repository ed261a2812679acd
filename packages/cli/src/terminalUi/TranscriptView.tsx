import type { TodoItem } from "@lathe/protocol";
import { Box, Text } from "ink";
import { CallCard, RunningCallCard } from "./CallCard.js";
import { MarkdownText } from "./MarkdownText.js";
import type { Transcript, TranscriptItem } from "./transcriptModel.js";

const todoMarks: Record<TodoItem["status"], string> = {
  pending: "☐",
  in_progress: "▶",
  completed: "☑",
  cancelled: "☒",
};

/** Lines of the thinking being written kept in view. */
const liveReasoningLines = 3;

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
      return item.expanded ? (
        <Box flexDirection="column">
          <Text dimColor>{`✻ ${thoughtFor(item.seconds)}:`}</Text>
          <Box marginLeft={2}>
            <Text dimColor italic>
              {item.text}
            </Text>
          </Box>
        </Box>
      ) : (
        <Text dimColor>{`✻ ${thoughtFor(item.seconds)} · ${lineCount(item.text)} · Ctrl+O to show`}</Text>
      );
    case "call":
      return <CallCard item={item} />;
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

/** "Thought for 3 s", or "Thought" when it took under a second or its time is not known. */
function thoughtFor(seconds: number | undefined): string {
  return seconds === undefined || seconds < 1 ? "Thought" : `Thought for ${Math.round(seconds)} s`;
}

function lineCount(text: string): string {
  const lines = text.split("\n").length;
  return `${lines} line${lines === 1 ? "" : "s"}`;
}

/** The plan as a checklist: the item in progress stands out, finished ones fade. */
export function TodoList({ todos }: { todos: readonly TodoItem[] }) {
  return (
    <Box flexDirection="column">
      {todos.map((todo) => (
        <Text
          key={todo.id}
          bold={todo.status === "in_progress"}
          dimColor={todo.status === "completed" || todo.status === "cancelled"}
          strikethrough={todo.status === "cancelled"}
        >
          {todoMarks[todo.status]} {todo.content}
        </Text>
      ))}
    </Box>
  );
}

/** The turn being written: thinking, the answer so far, calls running, the plan, queued messages. */
export function LiveTurn({ transcript }: { transcript: Transcript }) {
  const thinking = transcript.reasoning.trim().split("\n").slice(-liveReasoningLines).join("\n");
  return (
    <Box flexDirection="column">
      {thinking ? (
        <Box flexDirection="column">
          <Text dimColor>✻ Thinking…</Text>
          <Box marginLeft={2}>
            <Text dimColor italic>
              {thinking}
            </Text>
          </Box>
        </Box>
      ) : null}
      {transcript.answer ? (
        <Box marginTop={1}>
          <MarkdownText text={transcript.answer} />
        </Box>
      ) : null}
      {transcript.calls.map((call) => (
        <RunningCallCard key={call.callId} call={call} />
      ))}
      {transcript.todos.length > 0 ? <TodoList todos={transcript.todos} /> : null}
      {transcript.queued.length > 0 ? (
        <Text dimColor>{transcript.queued.map((text) => `Queued: ${text}`).join("\n")}</Text>
      ) : null}
    </Box>
  );
}
