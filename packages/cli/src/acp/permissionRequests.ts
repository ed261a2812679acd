import * as acp from "@agentclientprotocol/sdk";
import type { ApprovalAnswer, ApprovalRequest, ToolKind } from "@lathe/core";
import { callTitle } from "./callTitles.js";
import { proposedDiffs } from "./editDiffs.js";

/** The session a question is asked in: its id, where its paths start, and its tools' kinds. */
export interface AskedIn {
  sessionId: string;
  projectRoot: string;
  toolKind(name: string): ToolKind | undefined;
}

/**
 * A call the policy asks about, put to the editor: allow or reject, once or always. "Always"
 * saves the rules the other faces save (as allow or deny rules) and is offered only when there
 * are some to save.
 */
export async function askPermission(
  client: acp.AgentContext,
  asked: AskedIn,
  request: ApprovalRequest,
  signal: AbortSignal,
): Promise<ApprovalAnswer> {
  const rules =
    request.alwaysRules && request.alwaysRules.length > 0 ? request.alwaysRules.join(", ") : undefined;
  // A cancelled run withdraws its question; the call is then rejected, as any cancelled one.
  const response = await client
    .request(
      acp.methods.client.session.requestPermission,
      {
        sessionId: asked.sessionId,
        // The change itself, for the editor to show beside the question; a command is its title.
        toolCall: {
          toolCallId: request.callId,
          title: callTitle(request.name, request.arguments),
          // The kind too, for clients whose policies go by it (auto-approving reads, say).
          kind: asked.toolKind(request.name) ?? "other",
          rawInput: request.arguments,
          content: proposedDiffs(request.arguments, asked.projectRoot),
        },
        options: [
          { optionId: "allow_once", name: "Allow", kind: "allow_once" },
          ...(rules
            ? [{ optionId: "allow_always", name: `Always allow (${rules})`, kind: "allow_always" as const }]
            : []),
          { optionId: "reject_once", name: "Reject", kind: "reject_once" },
          ...(rules
            ? [
                {
                  optionId: "reject_always",
                  name: `Always reject (${rules})`,
                  kind: "reject_always" as const,
                },
              ]
            : []),
        ],
      },
      { cancellationSignal: signal, stopWaitingOnCancel: true },
    )
    .catch(() => undefined);
  if (response?.outcome.outcome !== "selected") return { decision: "reject" };
  switch (response.outcome.optionId) {
    case "allow_once":
      return { decision: "accept" };
    case "allow_always":
      return { decision: "accept", always: "project-local" };
    case "reject_always":
      return { decision: "reject", always: "project-local" };
    default:
      return { decision: "reject" };
  }
}
