import type { ToolCallState } from "@lathe/protocol";
import { Box, Text } from "ink";
import { outputTail } from "./commandOutput.js";
import { DiffView } from "./DiffView.js";
import type { CallOutcome, SubagentRun } from "./subagentProgress.js";
import type { CallItem, RunningCall } from "./transcriptModel.js";

/** Rows of an edit's diff on its card; the rest is counted. */
const cardDiffRows = 16;
/** A sub-agent's latest steps kept under its line while it runs. */
const shownSubagentSteps = 3;

const outcomeMarks: Record<CallOutcome, { mark: string; color: string }> = {
  done: { mark: "✓", color: "green" },
  failed: { mark: "✗", color: "red" },
  rejected: { mark: "⊘", color: "yellow" },
};

/** States of a call not yet running worth a word; a running call's mark says the rest. */
const waitingStates: Partial<Record<ToolCallState, string>> = {
  awaiting_approval: "waiting for approval",
  scheduled: "queued",
};

/** "12 ms", "2.5 s", "3 min 5 s". */
export function durationText(seconds: number): string {
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
}

/**
 * A finished call: its mark, summary, step and duration on one line; a failed command red with
 * its exit code; then what to see of it: an edit's diff, a command's last lines, why it failed
 * or was refused, the sub-agents it ran.
 */
export function CallCard({ item }: { item: CallItem }) {
  const { mark, color } = outcomeMarks[item.outcome];
  const meta = [
    item.step === undefined ? undefined : `step ${item.step}`,
    item.seconds === undefined ? undefined : durationText(item.seconds),
  ].filter(Boolean);
  const failedCommand = item.exitCode !== undefined && item.exitCode !== 0;
  return (
    <Box flexDirection="column">
      <Text>
        <Text color={color}>{mark}</Text>{" "}
        <Text color={failedCommand ? "red" : undefined}>{item.summary}</Text>
        <Text dimColor>{meta.map((part) => ` · ${part}`).join("")}</Text>
        {failedCommand ? <Text color="red">{` · exit ${item.exitCode}`}</Text> : null}
      </Text>
      {item.diff ? (
        <Box marginLeft={2}>
          <DiffView files={item.diff} maxRows={cardDiffRows} />
        </Box>
      ) : null}
      {item.detail ? (
        <Box marginLeft={2}>
          {item.outcome === "done" ? (
            <Text dimColor>{item.detail}</Text>
          ) : (
            <Text color={color}>{item.detail}</Text>
          )}
        </Box>
      ) : null}
      {item.subagents?.map((run) => (
        <SubagentLines key={run.id} run={run} />
      ))}
    </Box>
  );
}

/** A call still running: its summary, what it waits for, the last lines of its output, its sub-agents at work. */
export function RunningCallCard({ call }: { call: RunningCall }) {
  const tail = call.output ? outputTail(call.output) : "";
  const waiting = call.state === undefined ? undefined : waitingStates[call.state];
  return (
    <Box flexDirection="column">
      <Text>
        <Text color="yellow">⋯</Text> {call.summary}
        <Text dimColor>{` · step ${call.step}${waiting ? ` · ${waiting}` : ""}`}</Text>
      </Text>
      {tail ? (
        <Box marginLeft={2}>
          <Text dimColor>{tail}</Text>
        </Box>
      ) : null}
      {call.subagents.map((run) => (
        <SubagentLines key={run.id} run={run} />
      ))}
    </Box>
  );
}

/**
 * A sub-agent nested under its `task` call: while it runs, its round, the tool it is running and
 * its latest steps; once finished, how it ended, in how many rounds and calls, and how long it took.
 */
function SubagentLines({ run }: { run: SubagentRun }) {
  const calls = `${run.steps.length} tool call${run.steps.length === 1 ? "" : "s"}`;
  const rounds = `${run.round} round${run.round === 1 ? "" : "s"}`;
  if (run.status !== undefined) {
    const took = run.seconds === undefined ? "" : ` · ${durationText(run.seconds)}`;
    return (
      <Box marginLeft={2}>
        <Text color={run.status === "completed" ? undefined : "red"} dimColor={run.status === "completed"}>
          {`↳ ${run.agent} ${run.status} · ${rounds} · ${calls}${took}`}
        </Text>
      </Box>
    );
  }
  return (
    <Box marginLeft={2} flexDirection="column">
      <Text dimColor>
        {`↳ ${run.agent}: ${run.description} · round ${run.round}${run.running ? ` · running ${run.running}` : ""}`}
      </Text>
      {run.steps.slice(-shownSubagentSteps).map((step, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the latest steps, redrawn as a whole
        <Box key={index} marginLeft={2}>
          <Text>
            <Text color={outcomeMarks[step.outcome].color}>{outcomeMarks[step.outcome].mark}</Text>{" "}
            <Text dimColor>{step.summary}</Text>
          </Text>
        </Box>
      ))}
    </Box>
  );
}
