import {
  AgentSession,
  type ApprovalAnswer,
  type ApprovalRequest,
  type AuthAdvice,
  CodeIndex,
  createEmbedder,
  createModelClient,
  type EditorBuffers,
  knownSecrets,
  LiveCodeIndex,
  loadCustomCommands,
  loadHooks,
  loadRuleLayers,
  type McpServerConfig,
  type ModelClient,
  openPersistence,
  type Persistence,
  readGitSummary,
  type SessionInfo,
  type SessionStore,
  SqliteMemoryBook,
  type ToolKind,
  type UserQuestions,
  type WorkspaceTrust,
} from "@lathe/core";
import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import type { CliArgs } from "./cliArgs.js";
import { clientFor } from "./modelClients.js";
import { projectRootFrom } from "./projectRoot.js";
import { settleProjectTrust } from "./projectTrust.js";
import { sessionTools } from "./sessionTools.js";
import { sessionDefaultSandbox } from "./toolCallSetup.js";
import type { UserSettings } from "./userSettings.js";

export interface EngineInputs {
  args: CliArgs;
  settings: UserSettings;
  env: Record<string, string | undefined>;
  latheHome: string;
  requestApproval?: (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalAnswer>;
  /** Answers the model's questions (the terminal chat); absent in headless runs. */
  askUser?: UserQuestions["ask"];
  /** Problems worth telling the user that do not stop the session (a broken hooks.json). */
  warn?: (message: string) => void;
  /** Asks whether to trust a folder whose gated files are not trusted yet (the interactive chat). */
  confirmTrust?: (trust: WorkspaceTrust) => Promise<boolean>;
  /** How a missing or rejected key is fixed where this face's user is; a terminal's by default. */
  authAdvice?: AuthAdvice;
  /** MCP servers this face's user brought along (an editor's, over ACP), started with the configured ones. */
  extraMcpServers?: McpServerConfig[];
  /** The open buffers of the editor this face serves, read instead of the disk where they differ. */
  editorBuffers?: EditorBuffers;
}

export type EngineSetup =
  | {
      ok: true;
      session: AgentSession;
      projectRoot: string;
      modelId: string;
      /** Why checkpoints are off for this project, when they are. */
      checkpointsOff?: LatheErrorInfo;
      /** The configured MCP servers and their state now: pending until each has started or failed. */
      mcpServers(): { name: string; status: string }[];
      /** The kind of a tool the session offers (read, edit, execute…), as its definition says. */
      toolKind(name: string): ToolKind | undefined;
      /** A client for another model, set up as this session's (its provider's base URL and key). */
      modelFor(modelId: string): { ok: true; client: ModelClient } | { ok: false; message: string };
      persistence: Persistence;
      /** Ends the session, writes out its traces and closes the database. */
      close(): Promise<void>;
    }
  | { ok: false; error: LatheErrorInfo; kind: "usage" | "auth" | "no_model" | "storage" };

/** Hooks a run starts with, before its first request. */
const hooksBeforeFirstRequest: ReadonlySet<string> = new Set(["SessionStart", "UserPromptSubmit"]);

/** Builds a session from flags, settings and environment; flags win over settings. */
export async function setUpEngine(inputs: EngineInputs): Promise<EngineSetup> {
  const { args, settings, env } = inputs;
  const projectRoot = projectRootFrom(args.cwd);
  if (!projectRoot.ok) return { ok: false, error: projectRoot.error, kind: "usage" };
  const modelId = args.model ?? env.LATHE_MODEL ?? settings.model ?? defaultModelFor(env);
  if (!modelId)
    return {
      ok: false,
      kind: "no_model",
      error: errorInfo("E_LLM_AUTH", "No model provider is configured."),
    };
  const provider = modelId.split(":")[0] ?? "";
  // The flags' base URL and key are for the provider of the model they came with.
  const clientWithFlags = (id: string) => {
    const own = id.split(":")[0] ?? "";
    return createModelClient({
      modelId: id,
      baseUrl: (own === provider ? args.baseUrl : undefined) ?? settings.baseUrls?.[own],
      baseUrls: settings.baseUrls,
      apiKey: own === provider ? args.apiKey : undefined,
      env,
      latheHome: inputs.latheHome,
      authAdvice: inputs.authAdvice,
      retry: settings.llm,
      fallbackModels: settings.fallbackModels,
    });
  };
  const client = clientWithFlags(modelId);
  if (!client.ok)
    return { ok: false, error: client.error, kind: client.error.code === "E_LLM_AUTH" ? "auth" : "usage" };
  const secrets = knownSecrets({
    env,
    latheHome: inputs.latheHome,
    apiKey: args.apiKey,
  });
  // The database and the checkpoints open (file system work) while trust, rules, hooks and tools
  // are read, not in front of them.
  const opening = openPersistence({
    latheHome: inputs.latheHome,
    projectRoot: projectRoot.path,
    secrets,
    checkpoints: settings.checkpoints,
    telemetry: settings.telemetry,
    logLevel: settings.logLevel,
  });
  const { trusted } = await settleProjectTrust({
    projectRoot: projectRoot.path,
    latheHome: inputs.latheHome,
    settings,
    trustFlag: args.trust,
    confirm: inputs.confirmTrust,
    warn: inputs.warn,
  });
  const layers = loadRuleLayers({
    latheHome: inputs.latheHome,
    projectRoot: projectRoot.path,
    cli: { allow: args.allowRules, deny: args.denyRules },
    projectTrusted: trusted,
  });
  if (layers.errors.length > 0) {
    const problems = layers.errors.map((e) => `${e.file ?? "flags"}: ${e.message}`).join("\n  ");
    await closeOpened(opening);
    return {
      ok: false,
      kind: "usage",
      error: errorInfo("E_INVALID_ARGS", `Invalid permission rules:\n  ${problems}`),
    };
  }
  const hooks = loadHooks({
    projectRoot: projectRoot.path,
    latheHome: inputs.latheHome,
    projectTrusted: trusted,
  });
  for (const problem of hooks.errors) inputs.warn?.(`hooks: ${problem.file}: ${problem.message}`);
  // A prompt from the command line goes to the model as soon as the session exists: the git
  // summary its first request shows is read now, while the tools and the database open. Not
  // when hooks run before that request: they may change what the summary describes.
  const gitSummary =
    args.prompt !== undefined && !hooks.hooks.some((hook) => hooksBeforeFirstRequest.has(hook.event))
      ? readGitSummary(projectRoot.path)
      : undefined;
  const tools = await sessionTools({
    projectRoot: projectRoot.path,
    latheHome: inputs.latheHome,
    projectTrusted: trusted,
    settings,
    env,
    warn: inputs.warn,
    background: true,
    extraServers: inputs.extraMcpServers,
  });
  const commands = await loadCustomCommands({
    projectRoot: projectRoot.path,
    latheHome: inputs.latheHome,
    projectCommands: trusted,
  });
  for (const problem of commands.errors) inputs.warn?.(`commands: ${problem.file}: ${problem.message}`);
  const persistence = await opening;
  if (!persistence.ok) {
    await tools.close();
    return { ok: false, kind: "storage", error: persistence.error };
  }
  const { store, checkpoints } = persistence.value;
  const resumed = resumeFrom(store, args.resume, projectRoot.path);
  if (!resumed.ok) {
    await tools.close();
    await persistence.value.close();
    return { ok: false, kind: "usage", error: resumed.error };
  }
  const model = resumedModel(resumed.session, args.model, client.client, clientWithFlags, inputs.warn);
  const registry = tools.registry;
  const summarizer = settings.fastModel ? fastModelClient(settings.fastModel, inputs) : undefined;
  const { codeIndex: indexCode = true, ...contextSettings } = settings.context ?? {};
  const memories = new SqliteMemoryBook({
    db: store.db,
    projectRoot: projectRoot.path,
    redact: persistence.value.redact,
  });
  const session = new AgentSession({
    memories,
    askUser: inputs.askUser,
    modelFor: (id) => {
      const client = clientFor(id, inputs);
      return client.ok ? client.client : undefined;
    },
    context: {
      ...contextSettings,
      userRules: args.appendSystemPrompt
        ? [...(settings.rules ?? []), args.appendSystemPrompt]
        : settings.rules,
      summarizer,
      codeIndex: indexCode ? codeIndexFor(store, projectRoot.path, inputs) : undefined,
      mcpResources: tools.mcp?.resources,
    },
    store,
    checkpoints,
    sessionId: resumed.session?.id,
    history: resumed.session && store.messages(resumed.session.id),
    priorUsage: resumed.session?.usage,
    hooks: hooks.hooks,
    rules: layers.rules,
    subagents: { projectAgents: trusted },
    commands: commands.commands,
    secrets,
    redact: persistence.value.redact,
    passEnvironment: settings.shell?.passEnvironment,
    sandbox: settings.sandbox ?? sessionDefaultSandbox,
    approvalTimeoutMs: settings.approvalTimeoutSeconds ? settings.approvalTimeoutSeconds * 1000 : undefined,
    projectRoot: projectRoot.path,
    latheHome: inputs.latheHome,
    model,
    tools: registry,
    mcp: tools.mcp,
    mode: args.mode ?? settings.mode,
    approvalMode: args.approvalMode ?? settings.approvalMode,
    maxIterations: args.maxIterations ?? settings.maxIterations,
    offeredTools: args.tools,
    requestApproval: inputs.requestApproval,
    shell: env.SHELL,
    editorBuffers: inputs.editorBuffers,
  });
  if (gitSummary) session.context.acceptGitSummaryReadAhead(gitSummary);
  for (const problem of await session.context.loadRules())
    inputs.warn?.(`rules: ${problem.file}: ${problem.message}`);
  const stopTracing = persistence.value.trace(session);
  return {
    ok: true,
    session,
    projectRoot: projectRoot.path,
    modelId: model.modelId,
    persistence: persistence.value,
    checkpointsOff: persistence.value.checkpointsOff,
    mcpServers: () => tools.mcpServers(),
    toolKind: (name) => registry.get(name)?.kind,
    modelFor(other: string) {
      const made = clientWithFlags(other);
      return made.ok ? { ok: true, client: made.client } : { ok: false, message: made.error.message };
    },
    async close() {
      await session.dispose();
      await tools.close();
      await stopTracing();
      await persistence.value.close();
    },
  };
}

/**
 * The model a resumed session goes on with: the one it last used, unless `--model` names another
 * or that one cannot be reached now (then the configured one, and why).
 */
function resumedModel(
  session: SessionInfo | undefined,
  flagModel: string | undefined,
  configured: ModelClient,
  clientWith: (id: string) => ReturnType<typeof createModelClient>,
  warn: ((message: string) => void) | undefined,
): ModelClient {
  if (!session || flagModel !== undefined || session.model === configured.modelId || session.model === "")
    return configured;
  const last = clientWith(session.model);
  if (last.ok) return last.client;
  warn?.(
    `the session last used ${session.model}, which is not available now (${last.error.message}); going on with ${configured.modelId}`,
  );
  return configured;
}

/** Closes persistence opened for a set-up that failed after it. */
async function closeOpened(opening: ReturnType<typeof openPersistence>): Promise<void> {
  const persistence = await opening;
  if (persistence.ok) await persistence.value.close();
}

/** The project's code index in the session database, with the configured embedding model if any. */
function codeIndexFor(store: SessionStore, projectRoot: string, inputs: EngineInputs): LiveCodeIndex {
  const modelId = inputs.settings.embeddingModel;
  const embedder = modelId
    ? createEmbedder({
        modelId,
        baseUrl: inputs.settings.baseUrls?.[modelId.split(":")[0] ?? ""],
        env: inputs.env,
        latheHome: inputs.latheHome,
      })
    : undefined;
  if (embedder && !embedder.ok)
    inputs.warn?.(`embeddingModel ${modelId}: ${embedder.error.message}; code search uses BM25 alone`);
  const embedding = embedder?.ok && modelId ? { embed: embedder.embed, embeddingModel: modelId } : {};
  return new LiveCodeIndex(() => CodeIndex.open({ db: store.db, projectRoot, ...embedding }));
}

/** The fast model for summaries (SPEC §2 roles); a bad id is said once and the main model serves. */
function fastModelClient(modelId: string, inputs: EngineInputs): ModelClient | undefined {
  const client = clientFor(modelId, inputs);
  if (client.ok) return client.client;
  inputs.warn?.(`fastModel ${modelId}: ${client.error.message}; summaries use the main model`);
  return undefined;
}

/** The stored session `--resume`/`--continue` names; none when neither was given. */
function resumeFrom(
  store: SessionStore,
  resume: string | undefined,
  projectRoot: string,
): { ok: true; session?: SessionInfo } | { ok: false; error: LatheErrorInfo } {
  if (resume === undefined) return { ok: true };
  if (resume !== "latest") {
    const found = store.findSession(resume);
    return found.ok ? { ok: true, session: found.value } : found;
  }
  const latest = store.latestSession(projectRoot);
  if (latest) return { ok: true, session: latest };
  return {
    ok: false,
    error: errorInfo("E_SESSION_NOT_FOUND", `There is no earlier session in ${projectRoot} to continue.`),
  };
}

/** The first provider with a key in the environment, with a sensible default model for it. */
export function defaultModelFor(env: Record<string, string | undefined>): string | undefined {
  if (env.ANTHROPIC_API_KEY) return "anthropic:claude-sonnet-4-5";
  if (env.OPENAI_API_KEY) return "openai:gpt-4.1";
  if (env.GEMINI_API_KEY || env.GOOGLE_GENERATIVE_AI_API_KEY) return "google:gemini-2.5-pro";
  if (env.DEEPSEEK_API_KEY) return "deepseek:deepseek-chat";
  return undefined;
}
