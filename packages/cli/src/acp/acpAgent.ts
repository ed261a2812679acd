import * as acp from "@agentclientprotocol/sdk";
import {
  type AgentSession,
  type ApprovalAnswer,
  type ApprovalMode,
  type ApprovalRequest,
  approvalModeSchema,
  type ModelClient,
  type RunResult,
  shippedCatalog,
  type ToolKind,
} from "@lathe/core";
import { type LatheEvent, type Mode, modeSchema } from "@lathe/protocol";
import { callPath, EditDiffs } from "./editDiffs.js";

/** A session the agent opened for an editor, and how to end it. */
export interface OpenedSession {
  session: AgentSession;
  /** The project folder, realpath'd: where the tools' relative paths start. */
  projectRoot: string;
  /** The kind of one of the session's tools, for the editor's icons. */
  toolKind(name: string): ToolKind | undefined;
  /** A client for another model, set up as the session's, or why there is none. */
  modelFor(modelId: string): { ok: true; client: ModelClient } | { ok: false; message: string };
  close(): Promise<void>;
}

export interface AcpAgentDeps {
  version: string;
  /** The stored sessions, newest first: of the project in `cwd`, or all of them. */
  listSessions(
    cwd: string | undefined,
  ): { id: string; projectRoot: string; title: string; updatedAt: number }[];
  /**
   * Opens a Lathe session in `cwd` whose approvals are asked through `requestApproval`, or says
   * why it cannot (no model configured, a folder that is not there).
   */
  openSession(
    cwd: string,
    requestApproval: (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalAnswer>,
  ): Promise<{ ok: true; value: OpenedSession } | { ok: false; message: string }>;
}

const modeNames: Record<Mode, { name: string; description: string }> = {
  agent: { name: "Agent", description: "Reads, edits and runs commands." },
  ask: { name: "Ask", description: "Answers from the code; changes nothing." },
  plan: { name: "Plan", description: "Reads the code and writes a plan." },
  debug: { name: "Debug", description: "Works by hypotheses and instrumentation." },
};

/**
 * Lathe as an Agent Client Protocol agent (`lathe acp`): editors open sessions, send prompts and
 * see the answer and the tool calls stream as session updates; a call the policy asks about is a
 * permission request to the editor. Each session is an ordinary stored Lathe session.
 */
export function latheAcpAgent(deps: AcpAgentDeps): acp.AgentApp {
  const sessions = new Map<string, { opened: OpenedSession; running: boolean; diffs: EditDiffs }>();
  const known = (sessionId: string) => {
    const entry = sessions.get(sessionId);
    if (!entry) throw acp.RequestError.invalidParams({ sessionId }, `No session ${sessionId}.`);
    return entry;
  };
  return acp
    .agent({ name: "lathe" })
    .onRequest(acp.methods.agent.initialize, () => ({
      protocolVersion: acp.PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: false,
        promptCapabilities: { image: false, audio: false, embeddedContext: true },
        sessionCapabilities: { list: {}, close: {} },
      },
      agentInfo: { name: "lathe", title: "Lathe", version: deps.version },
      authMethods: [],
    }))
    .onRequest(acp.methods.agent.session.new, async ({ params, client }) => {
      // Approvals come only with a prompt, after this returns: the id is known by then.
      let sessionId = "";
      const opened = await deps.openSession(params.cwd, (request, signal) =>
        askPermission(client, sessionId, request, signal),
      );
      if (!opened.ok) throw acp.RequestError.invalidParams({ cwd: params.cwd }, opened.message);
      const { session } = opened.value;
      sessionId = session.id;
      sessions.set(session.id, {
        opened: opened.value,
        running: false,
        diffs: new EditDiffs(opened.value.projectRoot),
      });
      return {
        sessionId: session.id,
        modes: modeState(session.setup.mode),
        configOptions: configOptions(session),
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
        const update = sessionUpdate(event, entry.opened, entry.diffs);
        if (update) void client.notify(acp.methods.client.session.update, { sessionId: session.id, update });
      });
      try {
        const result = await session.send(promptText(params.prompt));
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
    .onRequest(acp.methods.agent.session.setMode, ({ params, client }) => {
      const entry = known(params.sessionId);
      const mode = modeSchema.safeParse(params.modeId);
      if (!mode.success)
        throw acp.RequestError.invalidParams({ modeId: params.modeId }, `No mode ${params.modeId}.`);
      entry.opened.session.setMode(mode.data);
      // Not awaited: the notification goes out after this answer, not in front of it.
      void client.notify(acp.methods.client.session.update, {
        sessionId: params.sessionId,
        update: { sessionUpdate: "current_mode_update", currentModeId: mode.data },
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
        throw acp.RequestError.invalidParams({ configId: params.configId }, `No option ${params.configId}.`);
      }
      return { configOptions: configOptions(session) };
    })
    .onRequest(acp.methods.agent.session.close, async ({ params }) => {
      const entry = known(params.sessionId);
      sessions.delete(params.sessionId);
      await entry.opened.close();
      return {};
    });
}

function modeState(current: Mode) {
  return {
    currentModeId: current,
    availableModes: modeSchema.options.map((id) => ({ id, ...modeNames[id] })),
  };
}

const approvalModeNames: Record<ApprovalMode, string> = {
  manual: "Ask about everything",
  ask_first: "Ask from medium risk",
  auto_edit: "Edits without asking",
  auto: "Ask only for critical",
  yolo: "Never ask",
};

/** The session's settings an editor can change: its model and its approval mode. */
function configOptions(session: AgentSession): acp.SessionConfigOption[] {
  const current = session.modelId;
  const provider = current.split(":")[0] ?? "";
  // The catalog's models of the session's provider: one key and base URL serve them all.
  const models = [
    current,
    ...[...shippedCatalog().keys()].filter((id) => id.startsWith(`${provider}:`) && id !== current),
  ];
  return [
    {
      id: "model",
      name: "Model",
      category: "model",
      type: "select",
      currentValue: current,
      options: models.map((id) => ({ value: id, name: id })),
    },
    {
      id: "approval_mode",
      name: "Approval mode",
      type: "select",
      currentValue: session.setup.approvalMode,
      options: approvalModeSchema.options.map((mode) => ({ value: mode, name: approvalModeNames[mode] })),
    },
  ];
}

/** The text of a prompt: its text blocks, and embedded resources' text with their URI. */
function promptText(blocks: acp.ContentBlock[]): string {
  return blocks
    .map((block) => {
      if (block.type === "text") return block.text;
      if (block.type === "resource" && "text" in block.resource)
        return `${block.resource.uri}:\n${block.resource.text}`;
      if (block.type === "resource_link") return block.uri;
      return "";
    })
    .filter((text) => text !== "")
    .join("\n\n");
}

function stopReason(result: RunResult): acp.StopReason {
  if (result.status === "cancelled") return "cancelled";
  if (result.status === "iteration_limit") return "max_turn_requests";
  return "end_turn";
}

/** The session update a Lathe event becomes, if any. */
function sessionUpdate(
  event: LatheEvent,
  opened: OpenedSession,
  diffs: EditDiffs,
): acp.SessionUpdate | undefined {
  switch (event.type) {
    case "text_delta":
      return { sessionUpdate: "agent_message_chunk", content: { type: "text", text: event.delta } };
    case "reasoning_delta":
      return { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: event.delta } };
    case "tool_call_ready":
      diffs.noteCall(event.callId, opened.toolKind(event.name), event.arguments);
      return {
        sessionUpdate: "tool_call",
        toolCallId: event.callId,
        title: callTitle(event.name, event.arguments),
        kind: opened.toolKind(event.name) ?? "other",
        status: "pending",
        rawInput: event.arguments,
        locations: callLocations(event.arguments, opened.projectRoot),
      };
    case "tool_completed": {
      const diff = diffs.diffOf(event.callId);
      return {
        sessionUpdate: "tool_call_update",
        toolCallId: event.callId,
        status: "completed",
        content: [
          ...(diff ? [diff] : []),
          { type: "content", content: { type: "text", text: event.output } },
        ],
      };
    }
    case "tool_failed":
    case "tool_blocked":
      diffs.forget(event.callId);
      return {
        sessionUpdate: "tool_call_update",
        toolCallId: event.callId,
        status: "failed",
        content: [{ type: "content", content: { type: "text", text: event.error.message } }],
      };
    case "tool_rejected":
      diffs.forget(event.callId);
      return { sessionUpdate: "tool_call_update", toolCallId: event.callId, status: "failed" };
    case "todos":
      return {
        sessionUpdate: "plan",
        // A cancelled todo is no longer part of the plan.
        entries: event.todos.flatMap((todo) =>
          todo.status === "cancelled"
            ? []
            : [{ content: todo.content, priority: "medium" as const, status: todo.status }],
        ),
      };
    default:
      return undefined;
  }
}

/** What a call does, named by its file or its exact command rather than by the tool alone. */
export function callTitle(name: string, args: unknown): string {
  const fields = args !== null && typeof args === "object" ? (args as Record<string, unknown>) : {};
  const text = (key: string) => (typeof fields[key] === "string" ? (fields[key] as string) : undefined);
  const command = text("command");
  if (command !== undefined) return command;
  const target = text("path") ?? text("pattern") ?? text("query") ?? text("url");
  return target === undefined ? name : `${name} ${target}`;
}

/** The file a call is about, with its line when it names one, for the editor to follow. */
function callLocations(args: unknown, projectRoot: string): acp.ToolCallLocation[] {
  const path = callPath(args, projectRoot);
  if (path === undefined) return [];
  const { offset } = args as { offset?: unknown };
  return [typeof offset === "number" ? { path, line: offset } : { path }];
}

/** A call the policy asks about, put to the editor: allow once, or reject once. */
async function askPermission(
  client: acp.AgentContext,
  sessionId: string,
  request: ApprovalRequest,
  signal: AbortSignal,
): Promise<ApprovalAnswer> {
  // A cancelled run withdraws its question; the call is then rejected, as any cancelled one.
  const response = await client
    .request(
      acp.methods.client.session.requestPermission,
      {
        sessionId,
        toolCall: {
          toolCallId: request.callId,
          title: callTitle(request.name, request.arguments),
          rawInput: request.arguments,
        },
        // "Always" saves the rules the other faces save, and is offered only when there are some.
        options: [
          { optionId: "allow_once", name: "Allow", kind: "allow_once" },
          ...(request.alwaysRules && request.alwaysRules.length > 0
            ? [
                {
                  optionId: "allow_always",
                  name: `Always allow (${request.alwaysRules.join(", ")})`,
                  kind: "allow_always" as const,
                },
              ]
            : []),
          { optionId: "reject_once", name: "Reject", kind: "reject_once" },
        ],
      },
      { cancellationSignal: signal, stopWaitingOnCancel: true },
    )
    .catch(() => undefined);
  if (!response) return { decision: "reject" };
  if (response.outcome.outcome !== "selected") return { decision: "reject" };
  if (response.outcome.optionId === "allow_once") return { decision: "accept" };
  if (response.outcome.optionId === "allow_always") return { decision: "accept", always: "project-local" };
  return { decision: "reject" };
}
