import {
  addUsage,
  type FilePart,
  type Mode,
  newId,
  type RunState,
  type ToolCallPart,
  type Usage,
} from "@lathe/protocol";
import type { ModelClient } from "../llm/modelStream.js";
import type { McpNotice } from "../mcp/mcpSessionFeed.js";
import type { PromptExpansion } from "../mcp/promptCommand.js";
import type { SessionTodoList } from "../planning/todoList.js";
import type { ApprovalMode } from "../policy/approvalMode.js";
import type { ToolRegistry } from "../tools/toolRegistry.js";
import type { BatchRun } from "../tools/toolScheduler.js";
import { streamModelTurn, type TurnOutcome } from "./modelTurn.js";
import { prepareRequest } from "./requestPreparation.js";
import { blockedByHook, completeRun, endedBeforeModel } from "./runCompletion.js";
import { type RunProgress, type RunResult, startProgress, userCheckpointSettled } from "./runProgress.js";
import type { SessionCheckpoints } from "./sessionCheckpoints.js";
import type { SessionContext } from "./sessionContext.js";
import type { SessionHooks } from "./sessionHooks.js";
import {
  failedTurn,
  finishWith,
  goOn,
  iterationLimit,
  loopDetected,
  planLeftOpen,
  type RunEnding,
  type RunVerdict,
  stopHookAsksMore,
} from "./stopConditions.js";
import type { RoundOutcome, ToolRound } from "./toolRound.js";
import type { Transcript } from "./transcript.js";

/** What a run uses of its session; the session makes it once. */
export interface RunHost {
  readonly sessionId: string;
  readonly model: ModelClient;
  readonly tools: ToolRegistry;
  /** Tool rounds per user message before the run stops with `iteration_limit`. */
  readonly maxIterations: number;
  readonly context: SessionContext;
  readonly transcript: Transcript;
  readonly hooks: SessionHooks;
  readonly checkpoints: SessionCheckpoints;
  readonly toolRound: ToolRound;
  readonly todos: SessionTodoList;
  mode(): Mode;
  approvalMode(): ApprovalMode;
  /** The tools this mode and model offer, by name. */
  offeredTools(): Set<string>;
  /** Resolves once the MCP servers have started, or their grace time for the first request is over. */
  mcpStartedOrLate(): Promise<void>;
  /** What the MCP servers starting in the background have to say since the last request. */
  takeMcpNotices(): McpNotice[];
  /** A `/mcp__server__prompt` command filled in; undefined for any other text. */
  expandCommand(text: string, signal: AbortSignal): Promise<PromptExpansion | undefined>;
  loadAgents(): Promise<void>;
  /** Messages the user sent while the run was busy, taken off the queue. */
  takeQueued(): UserInput[];
  /** Adds a model call's usage to the session's total, and returns the total. */
  spend(usage: Usage): Usage;
  /** What sub-agents spent since the last call. */
  takeChildUsage(): Usage;
  transition(runId: string, to: RunState): void;
  /** A run completed with its answer, before `run_complete` (plan mode saves its plan here). */
  completed(run: CompletedRun, emit: RunProgress["emit"]): Promise<void>;
}

/** An image the user sent with a message (a screenshot pasted into an editor's prompt box), base64. */
export interface UserImage {
  mediaType: string;
  data: string;
}

/** What the user sends: the text, and the images that go with it. */
export interface UserInput {
  text: string;
  images: readonly UserImage[];
}

/** The images of a user message as its file parts, named by their place in it. */
function imageParts(images: readonly UserImage[]): FilePart[] {
  return images.map((image, index) => ({
    type: "file",
    path: `image-${index + 1}.${image.mediaType.split("/")[1] ?? "png"}`,
    mediaType: image.mediaType,
    data: image.data,
  }));
}

/** What a completed run leaves: the mode it ran in, the user's task and the model's answer. */
export interface CompletedRun {
  mode: Mode;
  task: string;
  answer: string;
}

/**
 * One user message through the loop of SPEC §3: a model turn, the tool round its calls make, and
 * the verdict on what follows — until a stop condition ends the run.
 */
export class AgentRun {
  private readonly progress: RunProgress;
  private offered: ReadonlySet<string> = new Set();
  private specs: ReturnType<ToolRegistry["specs"]> = [];
  /** The registry's revision `offered` and `specs` were read at. */
  private toolsRevision = -1;
  /** The user message this run answers: tool-call checkpoints point at it. */
  private messageId = "";
  /** The mode the run started in: its tools, its stop guard and what it leaves behind. */
  private mode: Mode = "agent";
  private task = "";

  constructor(
    private readonly host: RunHost,
    runId: string,
    emit: RunProgress["emit"],
    private readonly signal: AbortSignal,
  ) {
    this.progress = startProgress(runId, emit);
  }

  async execute({ text: typed, images }: UserInput): Promise<RunResult> {
    const { host, progress: run } = this;
    this.mode = host.mode();
    run.emit({
      type: "run_start",
      mode: this.mode,
      model: host.model.modelId,
      prompt: typed,
      context: { window: host.context.window, compactAt: host.context.compactAt },
    });
    const command = await host.expandCommand(typed, this.signal);
    if (command?.ok === false) return endedBeforeModel(run, command.error);
    const text = command?.text ?? typed;
    this.task = text;
    const prompted = await host.hooks.onPrompt(text, this.signal);
    if (prompted.blocked !== undefined) return blockedByHook(run, prompted.blocked);
    await this.begin(text, prompted.context, images);
    for (;;) {
      const ended = this.beforeTurn();
      if (ended) {
        await userCheckpointSettled(run);
        return this.finish(ended);
      }
      run.iterations++;
      run.emit({ type: "turn_start", iteration: run.iterations, maxIterations: host.maxIterations });
      this.setState("streaming");
      const turn = await this.modelTurn();
      const calls = turn.error || turn.loopWarning ? [] : toolCallsOf(turn);
      const round = calls.length > 0 ? await this.toolRound(calls) : undefined;
      run.emit({ type: "turn_end", iteration: run.iterations, toolCalls: calls.length });
      const verdict = await this.verdictAfter(turn, round);
      if (verdict.kind === "finish") return this.finish(verdict);
      if (verdict.reminder) host.transcript.remind(verdict.reminder);
    }
  }

  /**
   * The user message with what hooks and the context add to it. The snapshot of the project
   * before it runs while the context is gathered (rules, git facts, mentions) and the first
   * request streams: none of that changes a file, and no tool runs before the snapshot has
   * settled (awaited once the first answer is in).
   */
  private async begin(text: string, hookContext: string[], images: readonly UserImage[]): Promise<void> {
    const { host, progress: run } = this;
    const messageId = newId();
    const snapshot = host.checkpoints.start("user_message", { messageId });
    await host.loadAgents();
    const attached = await host.context.beginRun(text, {
      mode: host.mode(),
      offered: host.offeredTools(),
      signal: this.signal,
    });
    const message = host.transcript.newMessage(
      "user",
      [
        { type: "text", text },
        ...imageParts(images),
        ...hookContext.map((context) => ({ type: "system_reminder" as const, text: context })),
        ...attached,
      ],
      messageId,
    );
    this.messageId = message.id;
    if (snapshot)
      run.userCheckpoint = host.checkpoints.record(run.emit, "user_message", { messageId }, snapshot);
    host.transcript.append(message);
    this.readTools();
  }

  /** What this run offers; read again when tools arrived or left (MCP servers starting late). */
  private readTools(): void {
    this.toolsRevision = this.host.tools.revision;
    this.offered = this.host.offeredTools();
    this.specs = this.host.tools.specs((tool) => this.offered.has(tool.name));
  }

  /** Before each turn: a cancel ends the run, queued messages join it, the iteration cap applies. */
  private beforeTurn(): RunEnding | undefined {
    if (this.signal.aborted) return finishWith("cancelled");
    for (const { text, images } of this.host.takeQueued()) {
      const message = this.host.transcript.push("user", [{ type: "text", text }, ...imageParts(images)]);
      this.progress.emit({ type: "message_delivered", text, messageId: message.id });
    }
    return iterationLimit(this.progress, this.host.maxIterations);
  }

  /** One model call: the request prepared, the answer streamed, its usage counted and kept. */
  private async modelTurn(): Promise<TurnOutcome> {
    const { host, progress: run } = this;
    await host.mcpStartedOrLate();
    for (const notice of host.takeMcpNotices()) run.emit({ type: "notice", ...notice });
    if (this.toolsRevision !== host.tools.revision) this.readTools();
    const prepared = await prepareRequest({
      context: host.context,
      transcript: host.transcript,
      hooks: host.hooks,
      sessionId: host.sessionId,
      modelId: host.model.modelId,
      mode: host.mode(),
      specs: this.specs,
      signal: this.signal,
      force: run.forceCompaction ? { trigger: "overflow" } : undefined,
      emit: run.emit,
    });
    run.forceCompaction = false;
    const turn = await streamModelTurn({
      model: host.model,
      prepared,
      specs: this.specs,
      signal: this.signal,
      emit: run.emit,
      loop: host.context.loop,
    });
    await userCheckpointSettled(run);
    if (turn.usage) {
      if (prepared.estimatedInputTokens !== undefined) {
        host.context.ledger.calibrate(prepared.estimatedInputTokens, turn.usage.inputTokens);
      }
      run.usage = addUsage(run.usage, turn.usage);
      run.emit({ type: "usage", usage: turn.usage, total: host.spend(turn.usage) });
    }
    if (turn.parts.length > 0) host.transcript.push("assistant", turn.parts);
    if (turn.text) run.final = turn.text;
    run.refused = turn.refused === true;
    if (turn.loopWarning && !turn.error) {
      // The cut-off answer stands; the model is told why and asked again.
      run.emit({ type: "loop_warning", ...turn.loopWarning });
      host.transcript.remind(turn.loopWarning.message);
    }
    return turn;
  }

  private async toolRound(calls: ToolCallPart[]): Promise<RoundOutcome> {
    const { host, progress: run } = this;
    const batch: BatchRun = {
      offered: this.offered,
      approvalMode: host.approvalMode(),
      emit: run.emit,
      setState: (to) => this.setState(to),
      signal: this.signal,
      checkpoint: host.checkpoints.enabled
        ? (call) =>
            host.checkpoints.take(run.emit, "tool_call", {
              messageId: this.messageId,
              callId: call.callId,
            })
        : undefined,
    };
    const round = await host.toolRound.run(calls, batch);
    run.usage = addUsage(run.usage, host.takeChildUsage());
    return round;
  }

  /** Whether the run goes on after a turn: the stop conditions, asked in order. */
  private async verdictAfter(turn: TurnOutcome, round: RoundOutcome | undefined): Promise<RunVerdict> {
    if (turn.error) return failedTurn(turn.error, this.progress);
    // A repeating answer was cut off; the model has been told and is asked again.
    if (turn.loopWarning) return goOn;
    if (round) return this.afterTools(round);
    return this.whenModelStops();
  }

  private afterTools(round: RoundOutcome): RunVerdict {
    if (this.signal.aborted) return finishWith("cancelled");
    const detected = loopDetected(round.stop, this.progress);
    if (detected) return detected;
    this.setState("tool_results");
    return goOn;
  }

  /**
   * The model answered without calls: the run ends, unless the plan or a Stop hook says to go on.
   * In plan mode open todos are the plan itself, not work left undone.
   */
  private async whenModelStops(): Promise<RunVerdict> {
    const run = this.progress;
    return (
      (this.mode === "plan" ? undefined : planLeftOpen(this.host.todos.current(), run)) ??
      stopHookAsksMore(await this.host.hooks.onStop(run.stopHookActive, this.signal), run) ??
      finishWith("completed")
    );
  }

  private async finish(ending: RunEnding): Promise<RunResult> {
    const { progress: run } = this;
    // A server that failed or came up during the last request is still news for this run.
    for (const notice of this.host.takeMcpNotices()) run.emit({ type: "notice", ...notice });
    if (ending.status === "completed") {
      await this.host.completed({ mode: this.mode, task: this.task, answer: run.final }, run.emit);
    }
    return completeRun(this.progress, ending, {
      todos: this.host.todos,
      planMode: this.mode === "plan",
      setState: (to) => this.setState(to),
    });
  }

  private setState(to: RunState): void {
    this.host.transition(this.progress.runId, to);
  }
}

function toolCallsOf(turn: TurnOutcome): ToolCallPart[] {
  return turn.parts.filter((part): part is ToolCallPart => part.type === "tool_call");
}
