import * as acp from "@agentclientprotocol/sdk";
import type { AgentSession, ApprovalAnswer, ApprovalRequest, RunResult } from "@lathe/core";
import { type LatheEvent, type Mode, modeSchema } from "@lathe/protocol";

/** A session the agent opened for an editor, and how to end it. */
export interface OpenedSession {
  session: AgentSession;
  close(): Promise<void>;
}

export interface AcpAgentDeps {
  version: string;
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
  const sessions = new Map<string, { opened: OpenedSession; running: boolean }>();
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
      sessions.set(session.id, { opened: opened.value, running: false });
      return { sessionId: session.id, modes: modeState(session.setup.mode) };
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
        const update = sessionUpdate(event);
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
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.opened.session.cancel();
    })
    .onRequest(acp.methods.agent.session.setMode, ({ params }) => {
      const entry = known(params.sessionId);
      const mode = modeSchema.safeParse(params.modeId);
      if (!mode.success)
        throw acp.RequestError.invalidParams({ modeId: params.modeId }, `No mode ${params.modeId}.`);
      entry.opened.session.setMode(mode.data);
      return {};
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
function sessionUpdate(event: LatheEvent): acp.SessionUpdate | undefined {
  switch (event.type) {
    case "text_delta":
      return { sessionUpdate: "agent_message_chunk", content: { type: "text", text: event.delta } };
    case "reasoning_delta":
      return { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: event.delta } };
    case "tool_call_ready":
      return {
        sessionUpdate: "tool_call",
        toolCallId: event.callId,
        title: event.name,
        kind: "other",
        status: "pending",
        rawInput: event.arguments,
      };
    case "tool_completed":
      return {
        sessionUpdate: "tool_call_update",
        toolCallId: event.callId,
        status: "completed",
        content: [{ type: "content", content: { type: "text", text: event.output } }],
      };
    case "tool_failed":
    case "tool_blocked":
      return {
        sessionUpdate: "tool_call_update",
        toolCallId: event.callId,
        status: "failed",
        content: [{ type: "content", content: { type: "text", text: event.error.message } }],
      };
    case "tool_rejected":
      return { sessionUpdate: "tool_call_update", toolCallId: event.callId, status: "failed" };
    default:
      return undefined;
  }
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
        toolCall: { toolCallId: request.callId, title: request.name, rawInput: request.arguments },
        options: [
          { optionId: "allow_once", name: "Allow", kind: "allow_once" },
          { optionId: "reject_once", name: "Reject", kind: "reject_once" },
        ],
      },
      { cancellationSignal: signal, stopWaitingOnCancel: true },
    )
    .catch(() => undefined);
  if (!response) return { decision: "reject" };
  if (response.outcome.outcome === "selected" && response.outcome.optionId === "allow_once")
    return { decision: "accept" };
  return { decision: "reject" };
}
