import {
  addUsage,
  type EventDraft,
  emptyUsage,
  errorInfo,
  LatheError,
  type LatheErrorInfo,
  type Message,
  type Mode,
  newId,
  type RunState,
  type TodoItem,
  type Usage,
} from "@lathe/protocol";
import { type CustomCommand, expandCustomCommand } from "../context/commands/index.js";
import type { EditorStateUpdate } from "../context/dynamic/index.js";
import { knownSecrets } from "../llm/credentials.js";
import type { ModelClient } from "../llm/modelStream.js";
import { SessionTodoList } from "../planning/todoList.js";
import type { ApprovalMode } from "../policy/approvalMode.js";
import { secretRedactor } from "../secrets/secretRedactor.js";
import { loadTodos, saveTodos } from "../store/todoRecords.js";
import { FileReadLedger } from "../tools/fileReadLedger.js";
import { LintBaseline } from "../tools/lints/lintBaseline.js";
import { BackgroundTerminals } from "../tools/terminals/backgroundTerminals.js";
import { defaultOutputLimits } from "../tools/tool.js";
import type { ApprovalAnswer } from "../tools/toolApproval.js";
import { AgentRun, type RunHost, type UserImage, type UserInput } from "./agentRun.js";
import { ApprovalGrants } from "./approvalGrants.js";
import { EventBus, type EventListener } from "./eventBus.js";
import { closeInterruptedCalls } from "./interruptedCalls.js";
import { toolsForRequest } from "./modeTools.js";
import { savePlanOf } from "./planOutcome.js";
import { prepareRequest } from "./requestPreparation.js";
import type { RunResult } from "./runProgress.js";
import { canTransition } from "./runStateMachine.js";
import { SessionCheckpoints } from "./sessionCheckpoints.js";
import { SessionContext } from "./sessionContext.js";
import { SessionHooks } from "./sessionHooks.js";
import type { AgentSessionOptions } from "./sessionOptions.js";
import { SessionSandbox } from "./sessionSandbox.js";
import { SessionStorage } from "./sessionStorage.js";
import { AgentCatalog } from "./subagents/agentCatalog.js";
import type { AgentDefinition } from "./subagents/agentDefinitions.js";
import { childSessionOptions } from "./subagents/childSessions.js";
import { Subagents } from "./subagents/subagents.js";
import { ToolRound } from "./toolRound.js";
import { Transcript } from "./transcript.js";

export type { RunResult } from "./runProgress.js";
export type { Checkpointer } from "./sessionCheckpoints.js";
export type { AgentSessionOptions } from "./sessionOptions.js";

interface QueuedMessage extends UserInput {
  resolve(result: RunResult): void;
}

/** SPEC §5: an approval nobody answers counts as rejected after five minutes. */
const defaultApprovalTimeoutMs = 5 * 60_000;

const noApprover = async (): Promise<ApprovalAnswer> => ({
  decision: "reject",
  message:
    "Approval is required but no one can answer it here (headless run). Re-run with a more permissive --approval-mode.",
});

/**
 * One conversation with the agent: its parts live as long as the session (transcript, context,
 * hooks, checkpoints, grants, sandbox, sub-agents); each user message is one `AgentRun` through
 * the loop of SPEC §3. Messages sent while a run is busy are queued and delivered after the
 * current tool round.
 */
export class AgentSession {
  readonly id: string;
  /** The redactor for whatever this session's tools return and faces print. */
  readonly redact: (text: string) => string;
  readonly messages: Message[];
  /** Rules, editor state, token estimates, compaction and loop detection. */
  readonly context: SessionContext;
  /** The plan the model keeps with todo_write; stored with the session. */
  readonly todos: SessionTodoList;
  private readonly bus: EventBus;
  private readonly storage: SessionStorage;
  private readonly transcript: Transcript;
  private readonly hooks: SessionHooks;
  private readonly checkpoints: SessionCheckpoints;
  private readonly grants: ApprovalGrants;
  private readonly sandbox: SessionSandbox;
  private readonly toolRound: ToolRound;
  private readonly terminals = new BackgroundTerminals();
  private readonly subagents?: Subagents;
  private readonly agents: AgentCatalog;
  private readonly host: RunHost;
  private state: RunState = "idle";
  private mode: Mode;
  /** The user's agent the session acts as (`actAs`), until a built-in mode is chosen again. */
  private persona?: AgentDefinition;
  private model: ModelClient;
  private approvalMode: ApprovalMode;
  private active?: { runId: string; controller: AbortController };
  private readonly queue: QueuedMessage[] = [];
  /** Queued messages the current run has delivered: they settle with its result. */
  private delivered: QueuedMessage[] = [];
  private totalUsage: Usage = emptyUsage();
  /** What sub-agents spent during the current tool round, added to the run's usage after it. */
  private childUsage: Usage = emptyUsage();

  constructor(private readonly options: AgentSessionOptions) {
    this.model = options.model;
    this.id = options.sessionId ?? newId();
    this.redact =
      options.redact ??
      secretRedactor(options.secrets ?? knownSecrets({ env: process.env, latheHome: options.latheHome }));
    this.bus = new EventBus(this.id);
    this.mode = options.mode ?? "agent";
    this.approvalMode = options.approvalMode ?? "ask_first";
    const store = options.store;
    this.storage = new SessionStorage(store, (notice) => this.emitNow(notice));
    this.transcript = new Transcript(this.id, this.storage);
    this.messages = this.transcript.messages;
    const fileReads = new FileReadLedger();
    const lints = new LintBaseline();
    this.context = new SessionContext({
      projectRoot: options.projectRoot,
      modelId: options.model.modelId,
      model: options.model,
      shell: options.shell ?? "bash",
      store,
      fileReads,
      lints,
      settings: {
        ...options.context,
        // Spread over the caller's settings: without a memory book theirs stays.
        memories: options.memories
          ? () => options.memories?.memoriesForPrompt() ?? []
          : options.context?.memories,
      },
    });
    this.todos = new SessionTodoList({
      initial: store && options.sessionId ? loadTodos(store.db, options.sessionId) : undefined,
      persist: store
        ? (todos: TodoItem[]) => this.storage.write((written) => saveTodos(written.db, this.id, todos))
        : undefined,
    });
    this.hooks = new SessionHooks({
      hooks: options.hooks,
      projectRoot: options.projectRoot,
      sessionId: this.id,
      modelId: options.model.modelId,
      approvalMode: () => this.approvalMode,
    });
    this.checkpoints = new SessionCheckpoints(this.id, options.checkpoints, this.storage);
    this.grants = new ApprovalGrants({
      sessionId: this.id,
      projectRoot: options.projectRoot,
      latheHome: options.latheHome,
      rules: options.rules,
      storage: this.storage,
    });
    this.sandbox = new SessionSandbox(this.id, options.sandbox, this.grants);
    this.agents = new AgentCatalog(options.projectRoot, options.subagents?.projectAgents !== false);
    this.subagents = this.makeSubagents();
    this.toolRound = new ToolRound({
      registry: options.tools,
      context: this.context,
      transcript: this.transcript,
      grants: this.grants,
      sandbox: this.sandbox,
      hooks: this.hooks,
      secrets: options.secrets,
      approvalTimeoutMs: options.approvalTimeoutMs ?? defaultApprovalTimeoutMs,
      requestApproval: options.requestApproval ?? noApprover,
      toolContext: {
        projectRoot: options.projectRoot,
        sessionId: this.id,
        latheHome: options.latheHome,
        fileReads,
        terminals: this.terminals,
        lints,
        outputLimits: options.outputLimits ?? defaultOutputLimits,
        codeSearch: options.context?.codeIndex,
        subagents: this.subagents,
        todos: this.todos,
        questions: options.askUser ? { ask: options.askUser } : undefined,
        memories: options.memories,
        redact: this.redact,
        passEnvironment: options.passEnvironment,
        editorBuffers: options.editorBuffers,
      },
    });
    this.host = this.makeRunHost();
    if (store) {
      store.ensureSession({
        id: this.id,
        projectRoot: options.projectRoot,
        mode: this.mode,
        model: options.model.modelId,
      });
      // Subscribed first, so a fact is stored before any face hears of it.
      this.bus.subscribe((event) => this.storage.write((written) => written.recordEvent(event)));
    }
    this.transcript.resume(options.history ?? []);
    if (options.priorUsage) this.totalUsage = options.priorUsage;
    const closing = closeInterruptedCalls(this.messages);
    if (closing) this.transcript.push("tool", closing);
  }

  get runState(): RunState {
    return this.state;
  }

  get usage(): Usage {
    return this.totalUsage;
  }

  /** What a face shows of the session as it stands: its mode, approval mode and the tools its requests offer. */
  get setup(): { mode: Mode; approvalMode: ApprovalMode; tools: string[] } {
    return { mode: this.mode, approvalMode: this.approvalMode, tools: [...this.offeredTools()] };
  }

  subscribe(listener: EventListener): () => void {
    return this.bus.subscribe(listener);
  }

  /** A built-in mode; the session stops acting as one of the user's agents. */
  setMode(mode: Mode): void {
    this.mode = mode;
    this.persona = undefined;
    this.context.setPersona(undefined);
  }

  /** The user's own agents (`.lathe/agents/*.md`, in a trusted folder), which the session can act as. */
  async customAgents(): Promise<readonly AgentDefinition[]> {
    await this.loadAgents();
    return this.agents.definitions.filter((agent) => agent.source !== "builtin");
  }

  /**
   * Acts as one of the user's agents, as a mode of its own: its instructions go with every
   * request, only its tools are offered, and a read-only agent works as in ask mode.
   */
  async actAs(name: string): Promise<{ ok: true } | { ok: false; error: LatheErrorInfo }> {
    const agent = (await this.customAgents()).find((candidate) => candidate.name === name);
    if (agent === undefined) return { ok: false, error: errorInfo("E_INVALID_ARGS", `No agent ${name}.`) };
    this.mode = agent.readonly ? "ask" : "agent";
    this.persona = agent;
    this.context.setPersona({ name: agent.name, instructions: agent.instructions });
    return { ok: true };
  }

  /** The user's agent the session acts as, if any. */
  get actingAs(): string | undefined {
    return this.persona?.name;
  }

  setApprovalMode(mode: ApprovalMode): void {
    this.approvalMode = mode;
  }

  /** The model of the next request on; a run in flight finishes its current call on the old one. */
  setModel(model: ModelClient): void {
    this.model = model;
    this.context.setModel(model);
    this.storage.write((store) => store.setSessionModel(this.id, model.modelId));
  }

  get modelId(): string {
    return this.model.modelId;
  }

  /** The user's custom slash commands (`/name args`), which a message may start with. */
  get commands(): readonly CustomCommand[] {
    return this.options.commands ?? [];
  }

  /** Sends a user message. While a run is busy the message is queued; the promise settles with the run that delivered it. */
  send(text: string, images: readonly UserImage[] = []): Promise<RunResult> {
    if (this.active) {
      return new Promise((resolve) => {
        this.queue.push({ text, images, resolve });
        this.bus.emit(this.active!.runId, { type: "message_queued", text });
      });
    }
    return this.run({ text, images });
  }

  /** Stops the current run at once: aborts the model stream, kills running commands, cancels approvals. */
  cancel(): void {
    this.active?.controller.abort(new LatheError("E_CANCELLED", "Cancelled by the user."));
  }

  /** Ends the session: cancels the run in flight and kills every command left running in the background. */
  async dispose(): Promise<void> {
    this.cancel();
    await this.hooks.onSessionEnd();
    await this.terminals.killAll();
    await this.sandbox.dispose();
  }

  /** Forces a compaction of what is sent (`/compact [focus]`); the stored history stays whole. */
  async compact(focus?: string): Promise<void> {
    if (this.active) return;
    const runId = newId();
    const offered = this.offeredTools();
    await prepareRequest({
      context: this.context,
      transcript: this.transcript,
      hooks: this.hooks,
      sessionId: this.id,
      modelId: this.model.modelId,
      mode: this.mode,
      specs: this.options.tools.specs((tool) => offered.has(tool.name)),
      signal: new AbortController().signal,
      force: { trigger: "manual", focus },
      emit: (draft) => this.bus.emit(runId, draft),
    });
  }

  /** Tells the engine what the user's editor shows (SPEC §6): a full state first, then changes. */
  updateEditor(update: EditorStateUpdate): { ok: true } | { ok: false; error: LatheErrorInfo } {
    return this.context.editor.apply(update);
  }

  private async run(input: UserInput): Promise<RunResult> {
    const runId = newId();
    const controller = new AbortController();
    this.active = { runId, controller };
    this.delivered = [];
    const emit = (draft: EventDraft) => this.bus.emit(runId, draft);
    const result = await new AgentRun(this.host, runId, emit, controller.signal).execute(input);
    this.active = undefined;
    for (const queued of this.delivered) queued.resolve(result);
    const dropped = result.status === "cancelled" ? this.queue.splice(0) : [];
    for (const queued of dropped) {
      emit({ type: "message_dropped", text: queued.text });
      queued.resolve(result);
    }
    const next = this.queue.shift();
    if (next) void this.run(next).then(next.resolve);
    return result;
  }

  private makeRunHost(): RunHost {
    const session = this;
    return {
      sessionId: this.id,
      get model() {
        return session.model;
      },
      tools: this.options.tools,
      maxIterations: this.options.maxIterations ?? 25,
      context: this.context,
      transcript: this.transcript,
      hooks: this.hooks,
      checkpoints: this.checkpoints,
      toolRound: this.toolRound,
      todos: this.todos,
      mode: () => this.mode,
      approvalMode: () => this.approvalMode,
      offeredTools: () => this.offeredTools(),
      mcpStartedOrLate: async () => this.options.mcp?.startedOrLate(),
      takeMcpNotices: () => this.options.mcp?.takeNotices() ?? [],
      expandCommand: async (text, signal) => {
        const custom = expandCustomCommand(this.commands, text);
        if (custom !== undefined) return { ok: true, text: custom };
        return this.options.mcp?.expandCommand(text, signal);
      },
      loadAgents: () => this.loadAgents(),
      takeQueued: () => {
        const taken = this.queue.splice(0);
        this.delivered.push(...taken);
        return taken.map(({ text, images }) => ({ text, images }));
      },
      spend: (usage) => {
        this.totalUsage = addUsage(this.totalUsage, usage);
        return this.totalUsage;
      },
      takeChildUsage: () => {
        const spent = this.childUsage;
        this.childUsage = emptyUsage();
        return spent;
      },
      transition: (runId, to) => this.transition(runId, to),
      completed: (run, emit) =>
        savePlanOf(run, { projectRoot: this.options.projectRoot, todos: this.todos.current() }, emit),
    };
  }

  /**
   * The tools of this mode and model; tools whose service is missing are not offered (no rules
   * to fetch, no code index, no one to answer a question in a headless run), nor those that say
   * they cannot work (not configured, not installed), so the model is never shown a tool that
   * can only fail.
   */
  private offeredTools(): Set<string> {
    const services: Record<string, boolean> = {
      fetch_rules: (this.context.ruleCatalog?.requestable().length ?? 0) > 0,
      task: this.subagents !== undefined,
      update_memory: this.options.memories !== undefined,
      codebase_search: this.options.context?.codeIndex !== undefined,
      ask_user: this.options.askUser !== undefined,
    };
    const tools = toolsForRequest(this.mode, this.model.modelId, this.options.tools.list());
    const allowed = this.persona?.tools;
    const offered = this.options.offeredTools;
    return new Set(
      tools
        .filter((tool) => (services[tool.name] ?? true) && (tool.available?.() ?? true))
        .filter((tool) => allowed === undefined || allowed.includes(tool.name))
        .filter((tool) => offered === undefined || offered.includes(tool.name))
        .map((tool) => tool.name),
    );
  }

  /** `task` is offered while this session is shallower than the deepest level allowed. */
  private makeSubagents(): Subagents | undefined {
    const depth = this.options.subagents?.depth ?? 0;
    if (depth >= (this.options.subagents?.maxDepth ?? 2)) return undefined;
    return new Subagents({
      definitions: () => this.agents.definitions,
      spawn: (agent, maxIterations) =>
        new AgentSession(
          childSessionOptions(this.options, agent, {
            maxIterations,
            depth: depth + 1,
            approvalMode: this.approvalMode,
            rules: this.grants.rules(),
            hooks: this.hooks.forChildren(),
          }),
        ),
      onUsage: (usage) => {
        this.childUsage = addUsage(this.childUsage, usage);
        this.totalUsage = addUsage(this.totalUsage, usage);
      },
      readOnlyOnly: () => this.mode === "ask" || this.mode === "plan",
      onFinish: (agent, subagentId) =>
        this.hooks.onSubagentStop(
          agent.name,
          subagentId,
          this.active?.controller.signal ?? new AbortController().signal,
        ),
      settings: this.options.subagents,
    });
  }

  /** Files in `.lathe/agents/` that could not be read are reported, not fatal. */
  private async loadAgents(): Promise<void> {
    for (const problem of await this.agents.load()) {
      this.emitNow({
        type: "notice",
        level: "warning",
        code: "E_INVALID_ARGS",
        message: `Agent file ${problem.file} skipped: ${problem.message}`,
      });
    }
  }

  /** An event of the run in flight, or of the session between runs. */
  private emitNow(draft: EventDraft): void {
    this.bus.emit(this.active?.runId ?? "", draft);
  }

  private transition(runId: string, to: RunState): void {
    const from = this.state;
    if (from === to) return;
    if (!canTransition(from, to)) throw new Error(`invalid run state transition ${from} → ${to}`);
    this.state = to;
    this.bus.emit(runId, { type: "state_change", from, to });
  }
}
