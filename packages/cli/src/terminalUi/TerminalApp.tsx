import type { RunState, Usage } from "@lathe/protocol";
import { Box, type Key, Static, Text, useInput } from "ink";
import { memo, useState, useSyncExternalStore } from "react";
import { ApprovalDetailView } from "./ApprovalDetailView.js";
import { callTarget } from "./approvalDetail.js";
import { PromptInput } from "./PromptInput.js";
import { ReasoningKey } from "./ReasoningKey.js";
import { LiveTurn, TranscriptItemView } from "./TranscriptView.js";
import type { TerminalControls } from "./terminalControls.js";
import type { Panel, TerminalState, TerminalView } from "./terminalState.js";
import type { TranscriptItem } from "./transcriptModel.js";

export type { TerminalControls } from "./terminalControls.js";

/** The terminal UI: finished items in the scrollback, then the live turn, a panel or the input, the status. */
export function TerminalApp({ state, controls }: { state: TerminalState; controls: TerminalControls }) {
  const view = useSyncExternalStore(state.subscribe, state.current);
  return (
    <Box flexDirection="column">
      <Scrollback items={view.transcript.items} />
      <LiveTurn transcript={view.transcript} />
      <ReasoningKey state={state} />
      {view.panel ? <PanelView panel={view.panel} state={state} /> : null}
      <PromptInput controls={controls} view={view} state={state} />
      <StatusLine view={view} />
    </Box>
  );
}

/** Printable input: what the user typed or pasted, not a key that does something else. */
function isTyped(input: string, key: Key): boolean {
  return input !== "" && !key.ctrl && !key.meta && !key.tab;
}

function PanelView({ panel, state }: { panel: Panel; state: TerminalState }) {
  switch (panel.kind) {
    case "approval":
      return <ApprovalPanel panel={panel} state={state} />;
    case "question":
      return <QuestionPanel panel={panel} state={state} />;
    case "trust":
      return <TrustPanel panel={panel} state={state} />;
  }
}

/** Where "always" keeps its rule, by the key that picks it. */
const scopes = {
  s: { scope: "session", where: "this session" },
  p: { scope: "project-local", where: "this project (.lathe/settings.local.json)" },
  u: { scope: "user", where: "you, in every project ($LATHE_HOME/settings.json)" },
} as const;

function ApprovalPanel({
  panel,
  state,
}: {
  panel: Extract<Panel, { kind: "approval" }>;
  state: TerminalState;
}) {
  // The keys first; `e` then takes a reason, `a` then a scope.
  const [step, setStep] = useState<{ kind: "keys" } | { kind: "why"; text: string } | { kind: "scope" }>({
    kind: "keys",
  });
  const rules = panel.request.alwaysRules ?? [];
  const answer = (given: Parameters<typeof panel.answer>[0]) => {
    state.closePanel();
    panel.answer(given);
  };
  useInput((input, key) => {
    if (step.kind === "why") {
      const text = step.text;
      if (key.return)
        answer(text.trim() ? { decision: "reject", message: text.trim() } : { decision: "reject" });
      else if (key.escape) setStep({ kind: "keys" });
      else if (key.backspace || key.delete) setStep({ kind: "why", text: text.slice(0, -1) });
      else if (isTyped(input, key)) setStep({ kind: "why", text: text + input });
      return;
    }
    if (step.kind === "scope") {
      const picked = scopes[input as keyof typeof scopes];
      if (picked) answer({ decision: "accept", always: picked.scope });
      else if (key.escape) setStep({ kind: "keys" });
      return;
    }
    if (input === "y") answer({ decision: "accept" });
    else if (input === "a" && rules.length > 0) setStep({ kind: "scope" });
    else if (input === "n" || key.escape || (key.ctrl && input === "c")) answer({ decision: "reject" });
    else if (input === "e") setStep({ kind: "why", text: "" });
  });
  const { request } = panel;
  return (
    <Box flexDirection="column" marginTop={1} borderStyle="round" borderColor="yellow" paddingX={1}>
      <Text bold>
        Allow {request.name} {callTarget(request.arguments)}?
      </Text>
      <Text dimColor>
        {request.risk} risk: {request.reason}
      </Text>
      <ApprovalDetailView diff={panel.diff} detail={panel.detail} />
      {step.kind === "keys" ? (
        <Text>{`[y] yes  ${rules.length > 0 ? "[a] always  " : ""}[n] no  [e] no, and say why`}</Text>
      ) : null}
      {step.kind === "why" ? (
        <Text>
          Why not? <Text color="cyan">{step.text}</Text>
          <Text inverse> </Text>
        </Text>
      ) : null}
      {step.kind === "scope" ? (
        <Box flexDirection="column">
          <Text>Always allow {rules.join(", ")} for:</Text>
          {Object.entries(scopes).map(([keyName, { where }]) => (
            <Text key={keyName}>
              [{keyName}] {where}
            </Text>
          ))}
        </Box>
      ) : null}
    </Box>
  );
}

function QuestionPanel({
  panel,
  state,
}: {
  panel: Extract<Panel, { kind: "question" }>;
  state: TerminalState;
}) {
  const [choice, setChoice] = useState(0);
  const [typed, setTyped] = useState("");
  useInput((input, key) => {
    if (key.upArrow) setChoice((current) => Math.max(0, current - 1));
    else if (key.downArrow) setChoice((current) => Math.min(panel.options.length - 1, current + 1));
    else if (key.return) {
      const picked = typed.trim() || panel.options[choice];
      if (picked === undefined) return;
      state.closePanel();
      panel.answer(picked);
    } else if (key.backspace || key.delete) setTyped(typed.slice(0, -1));
    else if (isTyped(input, key)) setTyped(typed + input);
  });
  return (
    <Box flexDirection="column" marginTop={1} borderStyle="round" borderColor="cyan" paddingX={1}>
      <Text bold>{panel.question}</Text>
      {panel.options.map((option, index) => (
        <Text key={option} color={index === choice && typed === "" ? "cyan" : undefined}>
          {index === choice && typed === "" ? "❯ " : "  "}
          {option}
        </Text>
      ))}
      <Text>
        {panel.options.length > 0 ? "Or type an answer: " : "Answer: "}
        <Text color="cyan">{typed}</Text>
        <Text inverse> </Text>
      </Text>
    </Box>
  );
}

function TrustPanel({ panel, state }: { panel: Extract<Panel, { kind: "trust" }>; state: TerminalState }) {
  useInput((input, key) => {
    if (input !== "y" && input !== "n" && !key.return && !key.escape) return;
    state.closePanel();
    panel.answer(input === "y");
  });
  return (
    <Box flexDirection="column" marginTop={1} borderStyle="round" borderColor="yellow" paddingX={1}>
      <Text>{panel.text}</Text>
      <Text bold>{"Trust this folder? [y] yes  [n] no"}</Text>
    </Box>
  );
}

/** The run's state as the status line says it. */
const stateNames: Record<RunState, string> = {
  idle: "ready",
  streaming: "writing",
  tool_pending: "preparing a call",
  awaiting_approval: "waiting for you",
  tool_executing: "running",
  tool_results: "reading results",
  completed: "ready",
  failed: "ready",
  cancelled: "ready",
  iteration_limit: "ready",
};

/** Tokens in and out so far, as "12.3k". */
function tokenCount({ inputTokens, outputTokens }: Usage): string {
  const count = inputTokens + outputTokens;
  return count < 1000 ? String(count) : `${(count / 1000).toFixed(1)}k`;
}

/**
 * The finished items, printed once into the terminal's scrollback. Drawn again only when one is
 * added (the list is only ever appended to): Ink draws a `<Static>` that renders at once, outside
 * its frame limit, so one that rendered with every change of the live turn would repaint the
 * terminal at each streamed word.
 */
const Scrollback = memo(function Scrollback({ items }: { items: readonly TranscriptItem[] }) {
  return (
    <Static items={[...items]}>{(item, index) => <TranscriptItemView key={index} item={item} />}</Static>
  );
});

function StatusLine({ view }: { view: TerminalView }) {
  const { status, transcript } = view;
  if (!status) return null;
  const parts = [
    stateNames[transcript.state],
    transcript.iteration ? `round ${transcript.iteration.current}/${transcript.iteration.max}` : undefined,
    `${status.mode} · ${status.approvalMode}`,
    status.model,
    transcript.contextTokens !== undefined
      ? `context ${Math.round((transcript.contextTokens / status.contextWindow) * 100)}%`
      : undefined,
    transcript.total ? `${tokenCount(transcript.total)} tokens` : undefined,
    transcript.total ? `$${transcript.total.costUsd.toFixed(4)}` : undefined,
    status.sandbox ? "sandbox on" : "sandbox off",
  ];
  return <Text dimColor>{parts.filter(Boolean).join(" · ")}</Text>;
}
