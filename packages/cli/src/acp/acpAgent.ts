import * as acp from "@agentclientprotocol/sdk";
import {
  type AgentSession,
  type ApprovalAnswer,
  type ApprovalRequest,
  approvalModeSchema,
  type EditorBuffers,
  lookupModel,
  type McpServerConfig,
  type ModelClient,
  type RunResult,
  type ToolKind,
} from "@lathe/core";
import { clientMcpServers } from "./clientMcpServers.js";
import { EditDiffs } from "./editDiffs.js";
import { clientBuffers } from "./editorBuffers.js";
import { historyUpdates } from "./historyReplay.js";
import { LiveOutputs } from "./liveOutputs.js";
import { liveUpdate, type UpdateSource } from "./liveUpdates.js";
import { type AskedIn, askPermission } from "./permissionRequests.js";
import { promptInput } from "./promptContent.js";
import { applyMode, configOptions, modeState } from "./sessionSettings.js";
import { availableCommands, compactCommand } from "./slashCommands.js";

/** A session the agent opened for an editor, and how to end it. */
export interface OpenedSession {
  session: AgentSession;
  /** The project folder, realpath'd: where the tools' relative paths start. */
  projectRoot: string;
  /** What opening it had to say that the user should know (project files ignored in an untrusted folder). */
  warnings: readonly string[];
  /** The kind of one of the session's tools, for the editor's icons. */
  toolKind(name: string): ToolKind | undefined;
  /** A client for another model, set up as the session's, or why there is none. */
  modelFor(modelId: string): { ok: true; client: ModelClient } | { ok: false; message: string };
  close(): Promise<void>;
}

/** What an editor's `session/new` or `session/load` asks Lathe to open. */
export interface SessionRequest {
  cwd: string;
  /** The stored session to go on with (`session/load`); absent: a new one. */
  resume?: string;
  /** The editor's MCP servers, started with the configured ones. */
  mcpServers: McpServerConfig[];
  /** The editor's open buffers, when it offers them. */
  editorBuffers?: EditorBuffers;
  requestApproval(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer>;
}

export type SessionOpening =
  | { ok: true; value: OpenedSession }
  /** `auth`: no provider key or model is configured, which the user fixes outside the editor. */
  | { ok: false; message: string; reason: "auth" | "not_found" | "invalid" };

export interface AcpAgentDeps {
  version: string;
  /** How to set up a provider key, when none is set; undefined when one is. */
  providerKeyAdvice(): string | undefined;
  /** The providers with a key now, whose models an editor may switch to. */
  keyedProviders(): ReadonlySet<string>;
  /** The stored sessions, newest first: of the project in `cwd`, or all of them. */
  listSessions(
    cwd: string | undefined,
  ): { id: string; projectRoot: string; title: string; updatedAt: number }[];
  /** Opens a Lathe session, new or stored, or says why it cannot. */
  openSession(request: SessionRequest): Promise<SessionOpening>;
}

interface OpenEntry {
  opened: OpenedSession;
  running: boolean;
  source: UpdateSource;
}

/**
 * Lathe as an Agent Client Protocol agent (`lathe acp`): editors open sessions, send prompts and
 * see the answer and the tool calls stream as session updates; a call the policy asks about is a
 * permission request to the editor. Each session is an ordinary stored Lathe session.
 */
export function latheAcpAgent(deps: AcpAgentDeps): acp.AgentApp {
  const sessions = new Map<string, OpenEntry>();
  let clientCapabilities: acp.ClientCapabilities | undefined;
  const known = (sessionId: string) => {
    const entry = sessions.get(sessionId);
    if (!entry) throw acp.RequestError.sessionNotFound(sessionId);
    return entry;
  };
  const open = async (
    params: { cwd: string; mcpServers: acp.McpServer[] },
    client: acp.AgentContext,
    resume?: string,
  ): Promise<OpenEntry> => {
    // Approvals and reads come only with a prompt, after this returns: the session is known by then.
    let asked: AskedIn = { sessionId: resume ?? "", projectRoot: params.cwd, toolKind: () => undefined };
    const fs = clientCapabilities?.fs;
    const opened = await deps.openSession({
      cwd: params.cwd,
      resume,
      mcpServers: clientMcpServers(params.mcpServers, params.cwd),
      editorBuffers:
        fs?.readTextFile || fs?.writeTextFile ? clientBuffers(client, () => asked.sessionId, fs) : undefined,
      requestApproval: (request, signal) => askPermission(client, asked, request, signal),
    });
    if (!opened.ok) throw openingError(opened, params.cwd, resume);
    const { session, projectRoot, toolKind } = opened.value;
    asked = { sessionId: session.id, projectRoot, toolKind };
    const entry: OpenEntry = {
      opened: opened.value,
      running: false,
      source: {
        projectRoot,
        toolKind,
        contextWindow: () => lookupModel(session.modelId).contextWindow,
        diffs: new EditDiffs(projectRoot),
        outputs: new LiveOutputs(),
      },
    };
    sessions.set(session.id, entry);
    return entry;
  };
  return (
    acp
      .agent({ name: "lathe" })
      .onRequest(acp.methods.agent.initialize, ({ params }) => {
        clientCapabilities = params.clientCapabilities;
        const advice = deps.providerKeyAdvice();
        return {
          protocolVersion: acp.PROTOCOL_VERSION,
          agentCapabilities: {
            loadSession: true,
            promptCapabilities: { image: true, audio: false, embeddedContext: true },
            mcpCapabilities: { http: true, sse: false },
            sessionCapabilities: { list: {}, close: {} },
          },
          agentInfo: { name: "lathe", title: "Lathe", version: deps.version },
          authMethods: advice
            ? [{ id: "provider-key", name: "Set a provider key", description: advice }]
            : [],
        };
      })
      // Keys are read when a session opens: once the user has set one, the next session/new works.
      .onRequest(acp.methods.agent.authenticate, () => ({}))
      .onRequest(acp.methods.agent.session.new, async ({ params, client }) => {
        const { opened } = await open(params, client);
        announceCommands(client, opened);
        return {
          sessionId: opened.session.id,
          modes: await modeState(opened.session),
          configOptions: configOptions(opened.session, deps.keyedProviders()),
        };
      })
      .onRequest(acp.methods.agent.session.load, async ({ params, client }) => {
        // Loaded again over an open one: the open one ends first, so one run owns the session.
        const already = sessions.get(params.sessionId);
        if (already?.running) already.opened.session.cancel();
        if (already) {
          sessions.delete(params.sessionId);
          await already.opened.close();
        }
        const { opened } = await open(params, client, params.sessionId);
        // The replay goes out before the answer: the editor shows the conversation, then it is ready.
        for (const update of historyUpdates(opened.session.messages, opened.projectRoot, opened.toolKind))
          await client.notify(acp.methods.client.session.update, { sessionId: params.sessionId, update });
        announceCommands(client, opened);
        return {
          modes: await modeState(opened.session),
          configOptions: configOptions(opened.session, deps.keyedProviders()),
        };
      })
      .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
        const entry = known(params.sessionId);
        if (entry.running)
          throw acp.RequestError.invalidRequest(
            { sessionId: params.sessionId },
            "A prompt is already running in this session.",
          );
        entry.running = true;
        const { session } = entry.opened;
        const unsubscribe = session.subscribe((event) => {
          const update = liveUpdate(event, entry.source);
          if (update)
            void client.notify(acp.methods.client.session.update, { sessionId: session.id, update });
        });
        try {
          const { text, images } = promptInput(params.prompt, entry.opened.projectRoot);
          const compact = compactCommand(text);
          if (compact) {
            await session.compact(compact.focus);
            return { stopReason: "end_turn" as const };
          }
          const result = await session.send(text, images);
          return { stopReason: stopReason(result) };
        } finally {
          unsubscribe();
          entry.running = false;
        }
      })
      .onRequest(acp.methods.agent.session.list, ({ params }) => ({
        // Every session Lathe stored, whichever face started it: the web UI's and `lathe -p`'s too.
        sessions: deps.listSessions(params.cwd ?? undefined).map((stored) => ({
          sessionId: stored.id,
          cwd: stored.projectRoot,
          title: stored.title || null,
          updatedAt: new Date(stored.updatedAt).toISOString(),
        })),
      }))
      .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
        sessions.get(params.sessionId)?.opened.session.cancel();
      })
      .onRequest(acp.methods.agent.session.setMode, async ({ params, client }) => {
        const entry = known(params.sessionId);
        const refused = await applyMode(entry.opened.session, params.modeId);
        if (refused !== undefined) throw acp.RequestError.invalidParams({ modeId: params.modeId }, refused);
        // Not awaited: the notification goes out after this answer, not in front of it.
        void client.notify(acp.methods.client.session.update, {
          sessionId: params.sessionId,
          update: { sessionUpdate: "current_mode_update", currentModeId: params.modeId },
        });
        return {};
      })
      .onRequest(acp.methods.agent.session.setConfigOption, ({ params }) => {
        const entry = known(params.sessionId);
        const { session } = entry.opened;
        const value = String(params.value);
        if (params.configId === "model") {
          const made = entry.opened.modelFor(value);
          if (!made.ok) throw acp.RequestError.invalidParams({ value }, made.message);
          session.setModel(made.client);
        } else if (params.configId === "approval_mode") {
          const mode = approvalModeSchema.safeParse(value);
          if (!mode.success) throw acp.RequestError.invalidParams({ value }, `No approval mode ${value}.`);
          session.setApprovalMode(mode.data);
        } else {
          throw acp.RequestError.invalidParams(
            { configId: params.configId },
            `No option ${params.configId}.`,
          );
        }
        return { configOptions: configOptions(session, deps.keyedProviders()) };
      })
      .onRequest(acp.methods.agent.session.close, async ({ params }) => {
        const entry = known(params.sessionId);
        sessions.delete(params.sessionId);
        await entry.opened.close();
        return {};
      })
  );
}

/**
 * Tells the editor the session's slash commands, and what opening it had to say. Not awaited: it
 * goes out after the answer that names the session, which the editor needs first.
 */
function announceCommands(client: acp.AgentContext, opened: OpenedSession): void {
  const sessionId = opened.session.id;
  void client.notify(acp.methods.client.session.update, {
    sessionId,
    update: {
      sessionUpdate: "available_commands_update",
      availableCommands: availableCommands(opened.session),
    },
  });
  for (const warning of opened.warnings)
    void client.notify(acp.methods.client.session.update, {
      sessionId,
      update: { sessionUpdate: "notice", severity: "warning", title: warning },
    });
}

/** The protocol's error for a session that could not be opened. */
function openingError(
  failed: Extract<SessionOpening, { ok: false }>,
  cwd: string,
  resume: string | undefined,
): acp.RequestError {
  if (failed.reason === "auth") return acp.RequestError.authRequired({ cwd }, failed.message);
  if (failed.reason === "not_found" && resume !== undefined) return acp.RequestError.sessionNotFound(resume);
  return acp.RequestError.invalidParams({ cwd }, failed.message);
}

/** How a run ended, as the prompt's answer; a run that failed is the prompt's error, with Lathe's message. */
function stopReason(result: RunResult): acp.StopReason {
  if (result.status === "failed") {
    const error = result.error ?? { code: "E_LLM_ERROR", message: "The run failed." };
    if (error.code === "E_LLM_AUTH") throw acp.RequestError.authRequired({ code: error.code }, error.message);
    throw acp.RequestError.internalError({ code: error.code }, error.message);
  }
  if (result.status === "cancelled") return "cancelled";
  if (result.refused) return "refusal";
  if (result.status === "iteration_limit") return "max_turn_requests";
  return "end_turn";
}
