import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  addUsage,
  type EventDraft,
  type EventOf,
  emptyUsage,
  errorInfo,
  LatheError,
  type LatheErrorInfo,
  type Message,
  type Mode,
  newId,
  type Part,
  type RunEndReason,
  type RunState,
  type TodoItem,
  type ToolCallPart,
  type ToolResultPart,
  type Usage,
} from "@lathe/protocol";
import type { EditorStateUpdate } from "../context/dynamic/index.js";
import type { ConfiguredHook } from "../hooks/hookConfig.js";
import type { HookEvent, HookEventInput } from "../hooks/hookEvents.js";
import { runHooks } from "../hooks/runHooks.js";
import { knownSecrets } from "../llm/credentials.js";
import type { ModelClient } from "../llm/modelStream.js";
import { stopGuard } from "../planning/stopGuard.js";
import { SessionTodoList, todoProgress } from "../planning/todoList.js";
import type { ApprovalMode } from "../policy/approvalMode.js";
import { callSubjects } from "../policy/callSubjects.js";
import type { PermissionRule } from "../policy/policyTypes.js";
import { ruleForApproval, saveRule } from "../policy/rules/index.js";
import { detectSandbox } from "../policy/sandbox/detectSandbox.js";
import type { SandboxContext, SandboxSettings } from "../policy/sandbox/sandboxTypes.js";
import { secretRedactor } from "../secrets/secretRedactor.js";
import type { MemoryBook } from "../store/memoryRecords.js";
import type { SessionStore } from "../store/sessionStore.js";
import { loadTodos, saveTodos } from "../store/todoRecords.js";
import { FileReadLedger } from "../tools/fileReadLedger.js";
import { LintBaseline } from "../tools/lints/lintBaseline.js";
import { BackgroundTerminals } from "../tools/terminals/backgroundTerminals.js";
import { type AnyTool, defaultOutputLimits, type OutputLimits, readOnlyKinds } from "../tools/tool.js";
import { ToolRegistry } from "../tools/toolRegistry.js";
import {
  type ApprovalAnswer,
  type ApprovalRequest,
  type ApprovalScope,
  type PendingCall,
  runToolBatch,
} from "../tools/toolScheduler.js";
import type { UserQuestions } from "../tools/toolServices.js";
import { keepTrustAcrossOwnWrite } from "../trust/index.js";
import { EventBus, type EventListener } from "./eventBus.js";
import { closeInterruptedCalls } from "./interruptedCalls.js";
import { prefersApplyPatch, toolsForRequest } from "./modeTools.js";
import { canTransition } from "./runStateMachine.js";
import { type ContextSettings, type PreparedRequest, SessionContext } from "./sessionContext.js";
import { type AgentDefinition, builtinAgents, loadAgentDefinitions } from "./subagents/agentDefinitions.js";
import { type ChildSession, type SubagentSettings, Subagents } from "./subagents/subagents.js";

export interface AgentSessionOptions {
  projectRoot: string;
  latheHome: string;
  model: ModelClient;
  tools: ToolRegistry;
  mode?: Mode;
  approvalMode?: ApprovalMode;
  /** Tool rounds per user message before the run stops with `iteration_limit`. */
  maxIterations?: number;
  /** How a face answers approval requests; without one, every request is rejected. */
  requestApproval?: (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalAnswer>;
  outputLimits?: OutputLimits;
  /** Permission rules from every settings layer (`loadRuleLayers`); "always" answers add to them. */
  rules?: readonly PermissionRule[];
  /** An unanswered approval counts as rejected after this long (default 5 minutes). */
  approvalTimeoutMs?: number;
  /** The user's hooks (`loadHooks`): PreToolUse, PostToolUse, UserPromptSubmit… */
  hooks?: readonly ConfiguredHook[];
  /** Sandboxing of shell commands; absent means commands run unsandboxed. */
  sandbox?: SandboxSettings;
  /** Every key the process knows (`knownSecrets`): the policy refuses calls that would send one away. */
  secrets?: readonly string[];
  sessionId?: string;
  shell?: string;
  /** Where messages and events are written as they happen; absent means nothing outlives the process. */
  store?: SessionStore;
  /** The conversation so far, when resuming a stored session. */
  history?: readonly Message[];
  /** What the resumed session has cost so far, so session totals carry on from it. */
  priorUsage?: Usage;
  /** Snapshots of the project at each user message and before each mutating call (SPEC §7). */
  checkpoints?: Checkpointer;
  /** Rules, windows, compaction, loop thresholds, dynamic context (SPEC §6). */
  context?: ContextSettings;
  /** Sub-agents for `task` (SPEC §4); `depth` is this session's own depth (0 for the user's). */
  subagents?: SubagentSettings & { depth?: number };
  /** Answers `ask_user` questions; absent in headless runs, where the tool says no one can answer. */
  askUser?: UserQuestions["ask"];
  /** Memories kept across sessions (`update_memory`); their text goes into every prompt. */
  memories?: MemoryBook & { memoriesForPrompt(): string[] };
  /** A client for another `provider:model` (an agent definition's model); the session's own when absent. */
  modelFor?: (modelId: string) => ModelClient | undefined;
  /**
   * Scrubs secrets from tool results and output (`Persistence.redact`); without it, a redactor of
   * `secrets`, else of this process's `knownSecrets`.
   */
  redact?: (text: string) => string;
  /** Variables shell commands keep although they look secret (`shell.passEnvironment`). */
  passEnvironment?: readonly string[];
}

/** What the session needs of a checkpoint repository (`ShadowRepository` is one). */
export interface Checkpointer {
  snapshot(
    label: string,
  ): Promise<{ ok: true; value: { commit: string } } | { ok: false; error: LatheErrorInfo }>;
}

export interface RunResult {
  runId: string;
  status: RunEndReason;
  iterations: number;
  final: string;
  usage: Usage;
  error?: LatheErrorInfo;
}

interface QueuedMessage {
  text: string;
  resolve(result: RunResult): void;
}

/** Hooks that judge tool calls apply inside sub-agents too. */
const toolHookEvents: ReadonlySet<HookEvent> = new Set(["PreToolUse", "PostToolUse", "PostToolUseFailure"]);

/** SPEC §5: an approval nobody answers counts as rejected after five minutes. */
const defaultApprovalTimeoutMs = 5 * 60_000;

const noApprover = async (): Promise<ApprovalAnswer> => ({
  decision: "reject",
  message:
    "Approval is required but no one can answer it here (headless run). Re-run with a more permissive --approval-mode.",
});

/**
 * One conversation with the agent. Runs one user message at a time through the loop of SPEC §3;
 * messages sent while a run is busy are queued and delivered after the current tool round.
 */
export class AgentSession {
  readonly id: string;
  /** The redactor for whatever this session's tools return and faces print. */
  readonly redact: (text: string) => string;
  readonly messages: Message[] = [];
  private readonly bus: EventBus;
  private readonly fileReads = new FileReadLedger();
  private readonly terminals = new BackgroundTerminals();
  private readonly lints = new LintBaseline();
  private readonly invalidStreaks = new Map<string, number>();
  private readonly sessionRules: PermissionRule[] = [];
  private sandboxContext?: Promise<SandboxContext>;
  /** Sandbox grants the user gave, by call id; only the engine adds to them. */
  private readonly networkCallIds = new Set<string>();
  private readonly unsandboxedCallIds = new Set<string>();
  /** Whether SessionStart hooks have run. */
  private started = false;
  private state: RunState = "idle";
  private mode: Mode;
  private approvalMode: ApprovalMode;
  private active?: { runId: string; controller: AbortController };
  private readonly queue: QueuedMessage[] = [];
  private totalUsage: Usage = emptyUsage();
  private storageFailed = false;
  /** The user message the current run answers: tool-call checkpoints point at it. */
  private runMessageId = "";
  /** Rules, editor state, token estimates, compaction and loop detection. */
  readonly context: SessionContext;
  private agentDefinitions: readonly AgentDefinition[] = builtinAgents;
  private agentsLoaded = false;
  private readonly subagents?: Subagents;
  /** The plan the model keeps with todo_write; stored with the session. */
  readonly todos: SessionTodoList;
  /** What sub-agents spent during the current tool round, added to the run's usage after it. */
  private childUsage: Usage = emptyUsage();

  constructor(private readonly options: AgentSessionOptions) {
    this.id = options.sessionId ?? newId();
    this.redact =
      options.redact ??
      secretRedactor(options.secrets ?? knownSecrets({ env: process.env, latheHome: options.latheHome }));
    this.bus = new EventBus(this.id);
    this.mode = options.mode ?? "agent";
    this.approvalMode = options.approvalMode ?? "ask_first";
    this.context = new SessionContext({
      projectRoot: options.projectRoot,
      modelId: options.model.modelId,
      model: options.model,
      shell: options.shell ?? "bash",
      ...(options.store ? { store: options.store } : {}),
      fileReads: this.fileReads,
      lints: this.lints,
      settings: {
        ...options.context,
        ...(options.memories ? { memories: () => options.memories?.memoriesForPrompt() ?? [] } : {}),
      },
    });
    const todoStore = options.store;
    this.todos = new SessionTodoList({
      ...(todoStore && options.sessionId ? { initial: loadTodos(todoStore.db, options.sessionId) } : {}),
      ...(todoStore
        ? { persist: (todos: TodoItem[]) => this.persist(() => saveTodos(todoStore.db, this.id, todos)) }
        : {}),
    });
    const depth = options.subagents?.depth ?? 0;
    if (depth < (options.subagents?.maxDepth ?? 2)) {
      this.subagents = new Subagents({
        definitions: () => this.agentDefinitions,
        spawn: (agent, maxIterations) => this.spawnChild(agent, maxIterations, depth + 1),
        onUsage: (usage) => {
          this.childUsage = addUsage(this.childUsage, usage);
          this.totalUsage = addUsage(this.totalUsage, usage);
        },
        readOnlyOnly: () => this.mode === "ask" || this.mode === "plan",
        onFinish: async (agent, subagentId) => {
          if (!this.options.hooks?.length) return;
          const signal = this.active?.controller.signal ?? new AbortController().signal;
          await this.hookRunner(signal)("SubagentStop", {
            stopHookActive: false,
            agentId: subagentId,
            agentType: agent.name,
          });
        },
        ...(options.subagents ? { settings: options.subagents } : {}),
      });
    }
    const store = options.store;
    if (store) {
      store.ensureSession({
        id: this.id,
        projectRoot: options.projectRoot,
        mode: this.mode,
        model: options.model.modelId,
      });
      // Subscribed first, so a fact is stored before any face hears of it.
      this.bus.subscribe((event) => this.persist(() => store.recordEvent(event)));
    }
    this.messages.push(...(options.history ?? []));
    if (options.priorUsage) this.totalUsage = options.priorUsage;
    const closing = closeInterruptedCalls(this.messages);
    if (closing) this.pushMessage("tool", closing);
  }

  /**
   * A sub-agent's session: fresh messages, the agent's tools (read-only ones only for a read-only
   * agent, no `task` at the last level), the parent's policy, approvals, sandbox, checkpoints and
   * tool hooks (session-level hooks belong to the user's session alone).
   */
  private spawnChild(agent: AgentDefinition, maxIterations: number, depth: number): ChildSession {
    const maxDepth = this.options.subagents?.maxDepth ?? 2;
    const tools = this.options.tools.list().filter((tool) => {
      if (agent.readonly && !readOnlyKinds.has(tool.kind)) return false;
      if (agent.tools && !agent.tools.includes(tool.name)) return false;
      return tool.name !== "task" || depth < maxDepth;
    });
    const {
      store: _store,
      history: _history,
      sessionId: _id,
      priorUsage: _usage,
      ...inherited
    } = this.options;
    return new AgentSession({
      ...inherited,
      model: (agent.model ? this.options.modelFor?.(agent.model) : undefined) ?? this.options.model,
      tools: new ToolRegistry(tools),
      mode: agent.readonly ? "ask" : "agent",
      approvalMode: this.approvalMode,
      rules: this.rules(),
      maxIterations,
      subagents: { ...this.options.subagents, depth },
      ...(this.options.hooks
        ? { hooks: this.options.hooks.filter((hook) => toolHookEvents.has(hook.event)) }
        : {}),
    });
  }

  /** `.lathe/agents/*.md` beside the built-ins, read at the first message. */
  private async loadAgents(): Promise<void> {
    if (this.agentsLoaded) return;
    this.agentsLoaded = true;
    const loaded = await loadAgentDefinitions(this.options.projectRoot, {
      projectAgents: this.options.subagents?.projectAgents !== false,
    });
    this.agentDefinitions = loaded.agents;
    for (const problem of loaded.errors) {
      this.bus.emit(this.active?.runId ?? "", {
        type: "notice",
        level: "warning",
        code: "E_INVALID_ARGS",
        message: `Agent file ${problem.file} skipped: ${problem.message}`,
      });
    }
  }

  /**
   * Storage trouble must not end the user's run: the write is dropped and the user told once.
   * (A notice, not an exception: the conversation in memory is still whole.)
   */
  private persist(write: () => void): void {
    try {
      write();
    } catch (error) {
      if (this.storageFailed) return;
      this.storageFailed = true;
      this.bus.emit(this.active?.runId ?? "", {
        type: "notice",
        level: "warning",
        code: "E_STORAGE",
        message: `Session storage failed; this session is no longer being saved: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  }

  /** Takes a checkpoint; a failure is a notice, never the end of the run. */
  private async checkpoint(
    runId: string,
    reason: "user_message" | "tool_call",
    at: { messageId: string; callId?: string },
  ): Promise<void> {
    const snapshot = this.startSnapshot(reason, at);
    if (snapshot) await this.recordCheckpoint(runId, reason, at, snapshot);
  }

  /** Starts the snapshot without announcing it, so other preparation can overlap the git work. */
  private startSnapshot(
    reason: "user_message" | "tool_call",
    at: { messageId: string; callId?: string },
  ): ReturnType<Checkpointer["snapshot"]> | undefined {
    return this.options.checkpoints?.snapshot(`${reason} ${at.callId ?? at.messageId}`);
  }

  private async recordCheckpoint(
    runId: string,
    reason: "user_message" | "tool_call",
    at: { messageId: string; callId?: string },
    snapshot: ReturnType<Checkpointer["snapshot"]>,
  ): Promise<void> {
    const taken = await snapshot;
    if (!taken.ok) {
      this.bus.emit(runId, {
        type: "notice",
        level: "warning",
        code: taken.error.code,
        message: taken.error.message,
      });
      return;
    }
    const record = { sessionId: this.id, reason, commit: taken.value.commit, ...at };
    let checkpointId = newId();
    const store = this.options.store;
    if (store)
      this.persist(() => {
        checkpointId = store.addCheckpoint(record).id;
      });
    this.bus.emit(runId, { type: "checkpoint", checkpointId, ...record });
  }

  get runState(): RunState {
    return this.state;
  }

  get usage(): Usage {
    return this.totalUsage;
  }

  subscribe(listener: EventListener): () => void {
    return this.bus.subscribe(listener);
  }

  setMode(mode: Mode): void {
    this.mode = mode;
  }

  setApprovalMode(mode: ApprovalMode): void {
    this.approvalMode = mode;
  }

  /** Sends a user message. While a run is busy the message is queued; the promise settles with the run that delivered it. */
  send(text: string): Promise<RunResult> {
    if (this.active) {
      return new Promise((resolve) => {
        this.queue.push({ text, resolve });
        this.bus.emit(this.active!.runId, { type: "message_queued", text });
      });
    }
    return this.run(text);
  }

  /** Stops the current run at once: aborts the model stream, kills running commands, cancels approvals. */
  cancel(): void {
    this.active?.controller.abort(new LatheError("E_CANCELLED", "Cancelled by the user."));
  }

  /** Ends the session: cancels the run in flight and kills every command left running in the background. */
  async dispose(): Promise<void> {
    this.cancel();
    if (this.options.hooks?.length) {
      await this.hookRunner(new AbortController().signal)("SessionEnd", { reason: "exit" });
    }
    await this.terminals.killAll();
    const sandbox = await this.sandboxContext;
    if (sandbox) await rm(sandbox.tempDir, { recursive: true, force: true });
  }

  /**
   * SessionStart (before the first message) and UserPromptSubmit hooks: what they add goes to
   * the model beside the message; a block keeps the message from the model.
   */
  private async promptHooks(
    text: string,
    signal: AbortSignal,
  ): Promise<{ blocked?: string; context: string[] }> {
    if (!this.options.hooks?.length) return { context: [] };
    const run = this.hookRunner(signal);
    const context: string[] = [];
    if (!this.started) {
      this.started = true;
      context.push(
        ...(await run("SessionStart", { source: "startup", model: this.options.model.modelId }))
          .additionalContext,
      );
    }
    const submitted = await run("UserPromptSubmit", { prompt: text });
    if (submitted.blocked) return { blocked: submitted.blocked.reason, context };
    return { context: [...context, ...submitted.additionalContext] };
  }

  /** Runs Stop hooks when the model has finished; the reason to go on when one blocks. */
  private async stopHooks(active: boolean, signal: AbortSignal): Promise<string | undefined> {
    if (!this.options.hooks?.length || active) return undefined;
    const outcome = await this.hookRunner(signal)("Stop", { stopHookActive: active });
    return outcome.blocked?.reason;
  }

  private hookRunner(signal: AbortSignal) {
    const hooks = this.options.hooks ?? [];
    return <E extends HookEvent>(event: E, input: HookEventInput<E>) =>
      runHooks(event, input, {
        hooks,
        projectRoot: this.options.projectRoot,
        sessionId: this.id,
        signal,
        permissionMode: this.approvalMode,
      });
  }

  /** Rules in force: the loaded layers plus what "always" answers granted in this session. */
  private rules(): readonly PermissionRule[] {
    return [...(this.options.rules ?? []), ...this.sessionRules];
  }

  /** What an "always" answer to this call would save, shown in the request; undefined: not offered. */
  private alwaysRules(tool: AnyTool, args: unknown): string[] | undefined {
    const locations = { projectRoot: this.options.projectRoot, latheHome: this.options.latheHome };
    const derived = ruleForApproval(tool.name, callSubjects(tool.name, args), locations);
    return derived.ok ? derived.rules : undefined;
  }

  /** Remembers an "always" answer: the very rules the request showed, saved at the scope the user chose. */
  private async grantAlways(rules: readonly string[], scope: ApprovalScope): Promise<void> {
    const locations = { projectRoot: this.options.projectRoot, latheHome: this.options.latheHome };
    for (const text of rules) {
      const saved =
        scope === "project-local"
          ? await keepTrustAcrossOwnWrite(locations, () => saveRule(text, scope, locations))
          : await saveRule(text, scope, locations);
      if (!saved.ok) continue;
      this.sessionRules.push(saved.rule);
      const store = this.options.store;
      if (store) this.persist(() => store.addGrantedRule(this.id, text, scope));
    }
  }

  /** Detected once per session; the private /tmp lives as long as the session. */
  private sandboxFor(): Promise<SandboxContext> | undefined {
    const settings = this.options.sandbox;
    if (!settings || settings.mode === "off") return undefined;
    this.sandboxContext ??= detectSandbox().then((detection) => ({
      settings,
      detection,
      tempDir: join(tmpdir(), `lathe-sandbox-${this.id}`),
      networkCallIds: this.networkCallIds,
      unsandboxedCallIds: this.unsandboxedCallIds,
    }));
    return this.sandboxContext;
  }

  private async run(text: string): Promise<RunResult> {
    const runId = newId();
    const controller = new AbortController();
    this.active = { runId, controller };
    const waiting: QueuedMessage[] = [];
    const result = await this.loop(runId, text, controller.signal, waiting);
    this.active = undefined;
    for (const queued of waiting) queued.resolve(result);
    const dropped = result.status === "cancelled" ? this.queue.splice(0) : [];
    for (const queued of dropped) queued.resolve(result);
    const next = this.queue.shift();
    if (next) void this.run(next.text).then(next.resolve);
    return result;
  }

  private async loop(
    runId: string,
    text: string,
    signal: AbortSignal,
    delivered: QueuedMessage[],
  ): Promise<RunResult> {
    const started = performance.now();
    const maxIterations = this.options.maxIterations ?? 25;
    const emit = (draft: EventDraft) => this.bus.emit(runId, draft);
    const setState = (to: RunState) => this.transition(runId, to);
    let runUsage = emptyUsage();
    let iterations = 0;
    let final = "";
    let stopHookActive = false;
    let stopGuarded = false;

    const finish = (status: RunEndReason, error?: LatheErrorInfo): RunResult => {
      if (status === "cancelled" && this.todos.cancelAll()) emit(todosEvent(this.todos.current()));
      const open = this.todos.openItems().length;
      if (status === "completed" && open > 0) {
        emit({
          type: "notice",
          level: "info",
          message: `The run ended with ${open} todo${open === 1 ? "" : "s"} still open.`,
        });
      }
      setState(status === "loop_detected" ? "failed" : status);
      emit({
        type: "run_complete",
        reason: status,
        iterations,
        final,
        usage: runUsage,
        durationMs: Math.round(performance.now() - started),
        ...(error ? { error } : {}),
      });
      setState("idle");
      return { runId, status, iterations, final, usage: runUsage, ...(error ? { error } : {}) };
    };

    emit({ type: "run_start", mode: this.mode, model: this.options.model.modelId, prompt: text });
    const prompted = await this.promptHooks(text, signal);
    if (prompted.blocked !== undefined) {
      // The message never reaches the model: the run ends where it began, in idle.
      const error = errorInfo(
        "E_SECURITY_BLOCKED",
        `A UserPromptSubmit hook blocked this message: ${prompted.blocked}`,
      );
      const durationMs = Math.round(performance.now() - started);
      emit({ type: "run_complete", reason: "failed", iterations, final, usage: runUsage, durationMs, error });
      return { runId, status: "failed", iterations, final, usage: runUsage, error };
    }
    // The snapshot of the project before this message runs while the context is gathered (rules,
    // git facts, mentions) and the first request streams: none of that changes a file, and no
    // tool runs before the snapshot has settled (awaited once the first answer is in).
    const userMessageId = newId();
    const snapshot = this.startSnapshot("user_message", { messageId: userMessageId });
    await this.loadAgents();
    const attached = await this.context.beginRun(text, {
      mode: this.mode,
      offered: this.offeredTools(),
      signal,
    });
    const userMessage = this.newMessage(
      "user",
      [
        { type: "text", text },
        ...prompted.context.map((context) => ({ type: "system_reminder" as const, text: context })),
        ...attached,
      ],
      userMessageId,
    );
    this.runMessageId = userMessage.id;
    let userCheckpoint = snapshot
      ? this.recordCheckpoint(runId, "user_message", { messageId: userMessage.id }, snapshot)
      : undefined;
    const checkpointSettled = async () => {
      const pending = userCheckpoint;
      userCheckpoint = undefined;
      await pending;
    };
    this.appendMessage(userMessage);
    const offered = this.offeredTools();
    const specs = this.options.tools.specs((tool) => offered.has(tool.name));
    // A provider that says the prompt is too long gets one retry after a forced compaction (SPEC §2).
    let overflowRetried = false;
    let forceCompaction = false;

    for (;;) {
      if (signal.aborted) {
        await checkpointSettled();
        return finish("cancelled");
      }
      for (const queued of this.queue.splice(0)) {
        this.pushMessage("user", [{ type: "text", text: queued.text }]);
        delivered.push(queued);
      }
      if (iterations >= maxIterations) {
        await checkpointSettled();
        final ||= `Stopped after ${maxIterations} tool rounds (the iteration limit). Send "continue" to go on.`;
        return finish(
          "iteration_limit",
          errorInfo("E_ITERATION_LIMIT", `Reached ${maxIterations} tool rounds.`),
        );
      }
      iterations++;
      emit({ type: "turn_start", iteration: iterations, maxIterations });
      setState("streaming");
      const prepared = await this.prepareRequest(
        runId,
        specs,
        signal,
        forceCompaction ? { trigger: "overflow" } : undefined,
      );
      forceCompaction = false;
      const turn = await this.streamTurn(prepared, specs, signal, emit);
      await checkpointSettled();
      if (turn.usage) {
        if (prepared.estimatedInputTokens !== undefined) {
          this.context.ledger.calibrate(prepared.estimatedInputTokens, turn.usage.inputTokens);
        }
        runUsage = addUsage(runUsage, turn.usage);
        this.totalUsage = addUsage(this.totalUsage, turn.usage);
        emit({ type: "usage", usage: turn.usage, total: this.totalUsage });
      }
      if (turn.parts.length > 0) this.pushMessage("assistant", turn.parts);
      if (turn.text) final = turn.text;
      if (turn.error) {
        emit({ type: "turn_end", iteration: iterations, toolCalls: 0 });
        if (turn.error.code === "E_CANCELLED") return finish("cancelled");
        if (turn.error.code === "E_CONTEXT_OVERFLOW" && !overflowRetried) {
          overflowRetried = true;
          forceCompaction = true;
          iterations--;
          continue;
        }
        return finish("failed", turn.error);
      }
      if (turn.loopWarning) {
        // The cut-off answer stands; the model is told why and asked again.
        emit({ type: "loop_warning", ...turn.loopWarning });
        this.pushMessage("user", [{ type: "system_reminder", text: turn.loopWarning.message }]);
        emit({ type: "turn_end", iteration: iterations, toolCalls: 0 });
        continue;
      }
      const calls = turn.parts.filter((part): part is ToolCallPart => part.type === "tool_call");
      if (calls.length === 0) {
        emit({ type: "turn_end", iteration: iterations, toolCalls: 0 });
        const nudge = stopGuard({ todos: this.todos.current(), alreadyNudged: stopGuarded });
        if (nudge !== undefined) {
          // Stopping with most of the plan open looks premature: the model is asked once to go on.
          stopGuarded = true;
          this.pushMessage("user", [{ type: "system_reminder", text: nudge }]);
          continue;
        }
        const stop = await this.stopHooks(stopHookActive, signal);
        if (stop === undefined) return finish("completed");
        // A Stop hook asked for more work (once per run, as in Claude Code): the model hears why.
        stopHookActive = true;
        this.pushMessage("user", [
          { type: "system_reminder", text: `A Stop hook asked you to continue: ${stop}` },
        ]);
        continue;
      }
      setState("tool_pending");
      const sandbox = await this.sandboxFor();
      const results = await runToolBatch(calls.map(pendingCall), {
        registry: this.options.tools,
        offered,
        approvalMode: this.approvalMode,
        rules: () => this.rules(),
        ...(this.options.secrets ? { secrets: this.options.secrets } : {}),
        alwaysRules: (tool, args) => this.alwaysRules(tool, args),
        grantAlways: (rules, scope) => this.grantAlways(rules, scope),
        approvalTimeoutMs: this.options.approvalTimeoutMs ?? defaultApprovalTimeoutMs,
        requestApproval: this.options.requestApproval ?? noApprover,
        context: {
          projectRoot: this.options.projectRoot,
          sessionId: this.id,
          latheHome: this.options.latheHome,
          fileReads: this.fileReads,
          terminals: this.terminals,
          lints: this.lints,
          ...(sandbox ? { sandbox } : {}),
          outputLimits: this.options.outputLimits ?? defaultOutputLimits,
          ...(this.context.ruleCatalog ? { rules: this.context.ruleCatalog } : {}),
          ...(this.options.context?.codeIndex ? { codeSearch: this.options.context.codeIndex } : {}),
          ...(this.subagents ? { subagents: this.subagents } : {}),
          todos: this.todos,
          ...(this.options.askUser ? { questions: { ask: this.options.askUser } } : {}),
          ...(this.options.memories ? { memories: this.options.memories } : {}),
          emitEvent: emit,
          redact: this.redact,
          passEnvironment: this.options.passEnvironment,
        },
        emit,
        setState,
        signal,
        invalidStreaks: this.invalidStreaks,
        ...(this.options.hooks?.length ? { runHook: this.hookRunner(signal) } : {}),
        ...(this.options.checkpoints
          ? {
              checkpoint: (call: PendingCall) =>
                this.checkpoint(runId, "tool_call", { messageId: this.runMessageId, callId: call.callId }),
            }
          : {}),
        ...(sandbox?.detection.available
          ? {
              sandbox: {
                networkAlwaysOn: sandbox.settings.network,
                grantNetwork: (callId: string) => this.networkCallIds.add(callId),
                grantUnsandboxed: (callId: string) => this.unsandboxedCallIds.add(callId),
              },
            }
          : {}),
      });
      runUsage = addUsage(runUsage, this.childUsage);
      this.childUsage = emptyUsage();
      const verdict = await this.afterCalls(calls, results);
      const reminders = verdict.warnings.map((warning) => ({
        type: "system_reminder" as const,
        text: warning.message,
      }));
      this.pushMessage("tool", [...results, ...reminders]);
      for (const warning of verdict.warnings) emit({ type: "loop_warning", ...warning });
      emit({ type: "turn_end", iteration: iterations, toolCalls: calls.length });
      if (signal.aborted) return finish("cancelled");
      if (verdict.stop) {
        emit({ type: "loop_warning", ...verdict.stop });
        final = verdict.stop.message;
        return finish("loop_detected", errorInfo("E_LOOP_DETECTED", verdict.stop.message));
      }
      setState("tool_results");
    }
  }

  /** Forces a compaction of what is sent (`/compact [focus]`); the stored history stays whole. */
  async compact(focus?: string): Promise<void> {
    if (this.active) return;
    const runId = newId();
    const offered = this.offeredTools();
    const specs = this.options.tools.specs((tool) => offered.has(tool.name));
    await this.prepareRequest(runId, specs, new AbortController().signal, {
      trigger: "manual",
      ...(focus ? { focus } : {}),
    });
  }

  /**
   * The tools of this mode and model; tools whose service is missing are not offered (no rules
   * to fetch, no code index), so the model is never shown a tool that can only fail.
   */
  private offeredTools(): Set<string> {
    const services: Record<string, boolean> = {
      fetch_rules: (this.context.ruleCatalog?.requestable().length ?? 0) > 0,
      task: this.subagents !== undefined,
      update_memory: this.options.memories !== undefined,
      codebase_search: this.options.context?.codeIndex !== undefined,
    };
    const tools = toolsForRequest(this.mode, this.options.model.modelId, this.options.tools.list());
    return new Set(tools.map((tool) => tool.name).filter((name) => services[name] ?? true));
  }

  /** The next request's system prompt and messages; a compaction it needed is stored and announced. */
  private async prepareRequest(
    runId: string,
    specs: ReturnType<ToolRegistry["specs"]>,
    signal: AbortSignal,
    force: { trigger: "manual" | "overflow"; focus?: string } | undefined,
  ): Promise<PreparedRequest> {
    const prepared = await this.context.prepare({
      history: this.messages,
      mode: this.mode,
      specs,
      applyPatch: prefersApplyPatch(this.options.model.modelId),
      sessionId: this.id,
      signal,
      ...(force ? { force } : {}),
      ...(this.options.hooks?.length
        ? {
            beforeCompaction: async (trigger: "auto" | "manual") => {
              await this.hookRunner(signal)("PreCompact", {
                trigger,
                ...(force?.focus ? { customInstructions: force.focus } : {}),
              });
            },
          }
        : {}),
    });
    const compaction = prepared.compaction;
    if (compaction?.report.summaryError) {
      const { summaryError } = compaction.report;
      this.bus.emit(runId, {
        type: "notice",
        level: "warning",
        code: summaryError.code,
        message: `The history could not be summarized; old tool outputs were cut instead: ${summaryError.message}`,
      });
    }
    // A compaction that could change nothing (the newest output alone is that large) is not news.
    if (compaction && (compaction.report.prunedOutputs > 0 || compaction.report.summarized)) {
      if (compaction.summary) this.appendMessage(compaction.summary);
      const { report } = compaction;
      this.bus.emit(runId, {
        type: "compaction",
        trigger: force?.trigger ?? "auto",
        tokensBefore: report.tokensBefore,
        tokensAfter: report.tokensAfter,
        prunedOutputs: report.prunedOutputs,
        summarized: report.summarized,
        ...(report.summaryTokens !== undefined ? { summaryTokens: report.summaryTokens } : {}),
        durationMs: compaction.durationMs,
      });
    }
    return prepared;
  }

  /** Loop detection and context bookkeeping over one batch's calls, in call order. */
  private async afterCalls(
    calls: readonly ToolCallPart[],
    results: readonly ToolResultPart[],
  ): Promise<{ warnings: LoopWarning[]; stop?: LoopWarning }> {
    const warnings: LoopWarning[] = [];
    for (const [index, call] of calls.entries()) {
      const tool = this.options.tools.get(call.name);
      const readOnly = tool !== undefined && readOnlyKinds.has(tool.kind);
      const result = results[index];
      if (result) await this.context.noteCall(call, result, tool !== undefined && !readOnly);
      const verdict = this.context.judgeCall({ name: call.name, arguments: call.arguments, readOnly });
      if (verdict.action === "stop") {
        return { warnings, stop: { kind: verdict.kind, count: verdict.count, message: verdict.message } };
      }
      if (verdict.action === "warn")
        warnings.push({ kind: verdict.kind, count: verdict.count, message: verdict.message });
    }
    return { warnings };
  }

  /** Streams one model response into parts; a failed stream becomes `error`, never an exception. */
  private async streamTurn(
    prepared: PreparedRequest,
    specs: ReturnType<ToolRegistry["specs"]>,
    runSignal: AbortSignal,
    emit: (draft: EventDraft) => void,
  ): Promise<{
    parts: Part[];
    text: string;
    usage?: Usage;
    error?: LatheErrorInfo;
    loopWarning?: LoopWarning;
  }> {
    const messageId = newId();
    let text = "";
    let reasoning = "";
    let calls: ToolCallPart[] = [];
    // Provider ids may repeat or be missing, so streamed calls are matched to their start in order.
    let started: { callId: string; providerCallId: string; name: string }[] = [];
    let usage: Usage | undefined;
    let loopWarning: LoopWarning | undefined;
    const repetition = new AbortController();
    const signal = AbortSignal.any([runSignal, repetition.signal]);
    this.context.loop.resetAnswer();
    const assemble = (): Part[] => [
      ...(reasoning ? [{ type: "reasoning" as const, text: reasoning }] : []),
      ...(text ? [{ type: "text" as const, text }] : []),
      ...calls,
    ];
    try {
      const stream = this.options.model.stream({
        system: prepared.system,
        messages: prepared.messages,
        tools: specs,
        signal,
      });
      streaming: for await (const event of stream) {
        switch (event.type) {
          case "text_delta": {
            text += event.delta;
            emit({ type: "text_delta", messageId, delta: event.delta });
            const verdict = this.context.loop.recordText(event.delta);
            if (verdict.action === "abort_stream") {
              // The answer is repeating itself: keep what came before, stop the stream, warn the model.
              loopWarning = { kind: verdict.kind, count: verdict.count, message: verdict.message };
              repetition.abort();
              break streaming;
            }
            break;
          }
          case "reasoning_delta":
            reasoning += event.delta;
            emit({ type: "reasoning_delta", messageId, delta: event.delta });
            break;
          case "tool_call_start": {
            const entry = { callId: newId(), providerCallId: event.providerCallId, name: event.name };
            started.push(entry);
            emit({ type: "tool_call_start", callId: entry.callId, name: entry.name });
            break;
          }
          case "tool_call_delta": {
            const entry = started.findLast((s) => s.providerCallId === event.providerCallId);
            if (entry)
              emit({ type: "tool_call_delta", callId: entry.callId, name: entry.name, delta: event.delta });
            break;
          }
          case "tool_call": {
            const index = started.findIndex(
              (s) => s.providerCallId === event.providerCallId && s.name === event.name,
            );
            const entry = index >= 0 ? started.splice(index, 1)[0]! : undefined;
            const callId = entry?.callId ?? newId();
            if (!entry) emit({ type: "tool_call_start", callId, name: event.name });
            const args = parseArguments(event.rawArguments);
            calls.push({
              type: "tool_call",
              callId,
              providerCallId: event.providerCallId,
              name: event.name,
              arguments: args,
              rawArguments: event.rawArguments,
            });
            emit({ type: "tool_call_ready", callId, name: event.name, arguments: args });
            break;
          }
          case "retry":
            text = "";
            reasoning = "";
            calls = [];
            started = [];
            emit({ type: "retry", attempt: event.attempt, delayMs: event.delayMs, error: event.error });
            break;
          case "finish":
            usage = event.usage;
            break;
        }
      }
    } catch (error) {
      if (loopWarning && !runSignal.aborted) {
        return { parts: text ? [{ type: "text", text }] : [], text, usage, loopWarning };
      }
      const info = runSignal.aborted
        ? errorInfo("E_CANCELLED", "Cancelled by the user.")
        : error instanceof LatheError
          ? error.toInfo()
          : errorInfo("E_LLM_ERROR", error instanceof Error ? error.message : String(error));
      // A cancelled stream keeps nothing half-made: calls without results would break the history.
      return { parts: text ? [{ type: "text", text }] : [], text, usage, error: info };
    }
    // Stopped for repeating itself: the text so far stands, half-streamed calls are dropped.
    if (loopWarning) return { parts: text ? [{ type: "text", text }] : [], text, usage, loopWarning };
    return { parts: assemble(), text, usage };
  }

  /** Tells the engine what the user's editor shows (SPEC §6): a full state first, then changes. */
  updateEditor(update: EditorStateUpdate): { ok: true } | { ok: false; error: LatheErrorInfo } {
    return this.context.editor.apply(update);
  }

  private pushMessage(role: Message["role"], parts: Part[]): void {
    this.appendMessage(this.newMessage(role, parts));
  }

  private newMessage(role: Message["role"], parts: Part[], id = newId()): Message {
    return { id, sessionId: this.id, role, parts, createdAt: Date.now() };
  }

  /** In memory and in storage before anything announces it. */
  private appendMessage(message: Message): void {
    this.messages.push(message);
    const store = this.options.store;
    if (store) this.persist(() => store.appendMessage(message));
  }

  private transition(runId: string, to: RunState): void {
    const from = this.state;
    if (from === to) return;
    if (!canTransition(from, to)) throw new Error(`invalid run state transition ${from} → ${to}`);
    this.state = to;
    this.bus.emit(runId, { type: "state_change", from, to });
  }
}

function todosEvent(todos: TodoItem[]): EventDraft {
  return { type: "todos", todos, ...todoProgress(todos) };
}

type LoopWarning = Omit<EventOf<"loop_warning">, "type" | "sessionId" | "runId" | "seq" | "at">;

function pendingCall(part: ToolCallPart): PendingCall {
  return {
    callId: part.callId,
    providerCallId: part.providerCallId,
    name: part.name,
    rawArguments: part.rawArguments,
  };
}

function parseArguments(raw: string): unknown {
  if (raw.trim() === "") return {};
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
