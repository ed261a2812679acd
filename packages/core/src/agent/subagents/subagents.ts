import {
  type EventDraft,
  errorInfo,
  type LatheErrorInfo,
  type LatheEvent,
  type Message,
  newId,
  type RunEndReason,
  type Usage,
} from "@lathe/protocol";
import type { SubagentLauncher } from "../../tools/toolServices.js";
import type { AgentDefinition } from "./agentDefinitions.js";

/** SPEC §4 defaults: two at once, two levels deep, 15 rounds, 10 minutes. */
export interface SubagentSettings {
  /** False in an untrusted folder: `.lathe/agents/*.md` are not offered (workspace trust). */
  projectAgents?: boolean;
  maxConcurrent?: number;
  maxDepth?: number;
  maxIterations?: number;
  timeoutMs?: number;
}

/** What the launcher needs of a child session (an AgentSession). */
export interface ChildSession {
  send(text: string): Promise<{
    status: RunEndReason;
    final: string;
    iterations: number;
    usage: Usage;
    error?: LatheErrorInfo;
  }>;
  cancel(): void;
  subscribe(listener: (event: LatheEvent) => void): () => void;
  readonly messages: readonly Message[];
  dispose(): Promise<void>;
}

export interface SubagentsOptions {
  definitions: () => readonly AgentDefinition[];
  /** Makes the child: its own messages, the agent's tools, the given round limit. */
  spawn(agent: AgentDefinition, maxIterations: number): ChildSession;
  /** The parent adds what its sub-agents spent to its own usage. */
  onUsage(usage: Usage): void;
  /** Ask and plan modes may only delegate to read-only agents. */
  readOnlyOnly(): boolean;
  /** After a sub-agent ends (SubagentStop hooks). */
  onFinish?(agent: AgentDefinition, subagentId: string): Promise<void>;
  settings?: SubagentSettings;
}

/**
 * Runs `task` calls as sub-agents: each a fresh session with its own context, limited tools and
 * bounded rounds and time; at most `maxConcurrent` at once (the rest wait their turn); cancel
 * reaches them; a timeout returns what they had so far.
 */
export class Subagents implements SubagentLauncher {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly options: SubagentsOptions) {}

  agents() {
    const readOnly = this.options.readOnlyOnly();
    return this.options
      .definitions()
      .filter((agent) => !readOnly || agent.readonly)
      .map(({ name, description, readonly }) => ({ name, description, readonly }));
  }

  async run(
    request: Parameters<SubagentLauncher["run"]>[0],
    signal: AbortSignal,
  ): ReturnType<SubagentLauncher["run"]> {
    const agent = this.options.definitions().find((candidate) => candidate.name === request.agent);
    if (!agent) {
      const known = this.agents()
        .map((candidate) => candidate.name)
        .join(", ");
      return {
        ok: false,
        error: errorInfo("E_INVALID_ARGS", `No agent "${request.agent}". Available: ${known}.`),
      };
    }
    if (!agent.readonly && this.options.readOnlyOnly()) {
      return {
        ok: false,
        error: errorInfo(
          "E_SECURITY_BLOCKED",
          `"${agent.name}" can change files, which this mode does not allow; use a read-only agent.`,
        ),
      };
    }
    await this.turn(signal);
    try {
      return await this.runChild(agent, request, signal);
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  /** Waits for a free slot; a cancelled wait gives up its place. */
  private async turn(signal: AbortSignal): Promise<void> {
    const limit = this.options.settings?.maxConcurrent ?? 2;
    while (this.running >= limit) {
      await new Promise<void>((resolve) => {
        this.waiting.push(resolve);
        signal.addEventListener("abort", () => resolve(), { once: true });
      });
      if (signal.aborted) break;
    }
    this.running++;
  }

  private async runChild(
    agent: AgentDefinition,
    request: Parameters<SubagentLauncher["run"]>[0],
    signal: AbortSignal,
  ): ReturnType<SubagentLauncher["run"]> {
    const settings = this.options.settings ?? {};
    const subagentId = newId();
    const emit = request.emit ?? (() => undefined);
    const started = performance.now();
    if (signal.aborted)
      return { ok: false, error: errorInfo("E_CANCELLED", "Cancelled before the sub-agent started.") };
    const child = this.options.spawn(agent, settings.maxIterations ?? 15);
    emit({
      type: "subagent_start",
      subagentId,
      callId: request.callId,
      agent: agent.name,
      description: request.description,
    });
    const unsubscribe = child.subscribe(progressForwarder(subagentId, emit));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.cancel();
    }, settings.timeoutMs ?? 600_000);
    const onAbort = () => child.cancel();
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      const result = await child.send(briefing(agent, request.prompt));
      this.options.onUsage(result.usage);
      await this.options.onFinish?.(agent, subagentId);
      const status = timedOut ? "timeout" : result.status;
      emit({
        type: "subagent_finish",
        subagentId,
        status,
        iterations: result.iterations,
        usage: result.usage,
        durationMs: Math.round(performance.now() - started),
      });
      return outcome(status, result, child.messages, settings.timeoutMs ?? 600_000);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      unsubscribe();
      await child.dispose();
    }
  }
}

/** The sub-agent sees its instructions and the task, nothing of the parent's conversation. */
function briefing(agent: AgentDefinition, prompt: string): string {
  return agent.instructions
    ? `<agent_instructions>\n${agent.instructions}\n</agent_instructions>\n\n${prompt}`
    : prompt;
}

/** A step's output as its card shows it: enough to follow, not a second copy of a large result. */
const stepOutputChars = 2_000;

/**
 * Passes a sub-agent's progress to the parent's stream: its rounds and tool states as they
 * change, and its steps (each tool call with its arguments once it has ended, each answer's text)
 * so a face can show the sub-agent's own transcript.
 */
function progressForwarder(
  subagentId: string,
  emit: (draft: EventDraft) => void,
): (event: LatheEvent) => void {
  const argumentsByCall = new Map<string, unknown>();
  let text = "";
  const step = (draft: Extract<EventDraft, { type: "subagent_step" }>["step"]) =>
    emit({ type: "subagent_step", subagentId, step: draft });
  const toolStep = (
    event: { callId: string; name: string },
    state: "completed" | "failed" | "rejected",
    output: string,
  ) =>
    step({
      kind: "tool",
      callId: event.callId,
      name: event.name,
      arguments: argumentsByCall.get(event.callId),
      state,
      output: output.length > stepOutputChars ? `${output.slice(0, stepOutputChars)}…` : output,
    });
  // An answer's text comes before the calls the same answer makes.
  const flushText = () => {
    if (text.trim() !== "") step({ kind: "text", text });
    text = "";
  };
  return (event) => {
    switch (event.type) {
      case "turn_start":
        emit({ type: "subagent_progress", subagentId, kind: "iteration", iteration: event.iteration });
        return;
      case "tool_call_state":
        if (event.state === "validating" || event.state === "scheduled") return;
        emit({
          type: "subagent_progress",
          subagentId,
          kind: "tool",
          iteration: 0,
          tool: event.name,
          toolState: event.state,
        });
        return;
      case "text_delta":
        text += event.delta;
        return;
      case "tool_call_ready":
        flushText();
        argumentsByCall.set(event.callId, event.arguments);
        return;
      case "tool_completed":
        toolStep(event, "completed", event.output);
        return;
      case "tool_failed":
      case "tool_blocked":
        toolStep(event, "failed", `${event.error.code}: ${event.error.message}`);
        return;
      case "tool_rejected":
        toolStep(event, "rejected", event.message);
        return;
      case "turn_end":
        flushText();
        return;
    }
  };
}

function outcome(
  status: RunEndReason | "timeout",
  result: Awaited<ReturnType<ChildSession["send"]>>,
  messages: readonly Message[],
  timeoutMs: number,
): Awaited<ReturnType<SubagentLauncher["run"]>> {
  if (status === "completed")
    return { ok: true, output: result.final, partial: false, iterations: result.iterations };
  const soFar = partialReport(messages);
  if (status === "timeout") {
    return {
      ok: true,
      partial: true,
      iterations: result.iterations,
      output: `The sub-agent ran out of time (${Math.round(timeoutMs / 1000)} s) and was stopped. What it had so far:\n\n${soFar || "(nothing yet)"}`,
    };
  }
  if (status === "iteration_limit") {
    return {
      ok: true,
      partial: true,
      iterations: result.iterations,
      output: `The sub-agent reached its round limit. What it had so far:\n\n${soFar || "(nothing yet)"}`,
    };
  }
  return {
    ok: false,
    error: result.error ?? errorInfo("E_TOOL_EXECUTION", `The sub-agent ended: ${status}.`),
    output: soFar || undefined,
  };
}

/** The sub-agent's own words so far, newest last: what a stopped sub-agent can still hand back. */
function partialReport(messages: readonly Message[]): string {
  return messages
    .filter((message) => message.role === "assistant")
    .flatMap((message) =>
      message.parts.flatMap((part) => (part.type === "text" && part.text.trim() ? [part.text.trim()] : [])),
    )
    .join("\n\n")
    .slice(-8000);
}
