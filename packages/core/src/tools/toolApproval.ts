import { type EventDraft, newId, type Risk, type RunState } from "@lathe/protocol";

export interface ApprovalRequest {
  approvalId: string;
  callId: string;
  name: string;
  arguments: unknown;
  risk: Risk;
  reason: string;
  /** The exact rules an "always" answer saves, for the user to see first; absent: "always" saves nothing. */
  alwaysRules?: string[];
}

/** Where an "always allow" answer is remembered. */
export type ApprovalScope = "session" | "project-local" | "user";

export type ApprovalAnswer =
  | { decision: "accept"; always?: ApprovalScope }
  | { decision: "reject"; message?: string; always?: ApprovalScope };

/** What asking needs of the run: the face's answerer, the clock, events and the run's state. */
export interface ApprovalChannel {
  requestApproval(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer>;
  /** An unanswered approval counts as rejected after this long (SPEC §5: 5 minutes). */
  approvalTimeoutMs: number;
  emit(draft: EventDraft): void;
  setState(state: RunState): void;
  signal: AbortSignal;
}

/**
 * Puts one question about a call to the user: the run and the call wait for approval, the
 * request is announced, and the answer comes back — or "cancelled", or a rejection on time-out.
 */
export async function askApproval(
  question: Omit<ApprovalRequest, "approvalId">,
  channel: ApprovalChannel,
): Promise<{ request: ApprovalRequest; answer: ApprovalAnswer | "cancelled" }> {
  channel.setState("awaiting_approval");
  channel.emit({
    type: "tool_call_state",
    callId: question.callId,
    name: question.name,
    state: "awaiting_approval",
  });
  const request: ApprovalRequest = { approvalId: newId(), ...question };
  channel.emit({ type: "approval_required", ...request });
  return { request, answer: await waitForApproval(request, channel) };
}

async function waitForApproval(
  request: ApprovalRequest,
  channel: ApprovalChannel,
): Promise<ApprovalAnswer | "cancelled"> {
  if (channel.signal.aborted) return "cancelled";
  const giveUp = new AbortController();
  const cancelled = new Promise<"cancelled">((resolve) =>
    channel.signal.addEventListener("abort", () => resolve("cancelled"), {
      once: true,
      signal: giveUp.signal,
    }),
  );
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<ApprovalAnswer>((resolve) => {
    timer = setTimeout(
      () =>
        resolve({
          decision: "reject",
          message: `Nobody answered the approval request within ${durationText(channel.approvalTimeoutMs)}, so it counts as rejected.`,
        }),
      channel.approvalTimeoutMs,
    );
  });
  try {
    return await Promise.race([
      channel.requestApproval(request, AbortSignal.any([channel.signal, giveUp.signal])),
      cancelled,
      timedOut,
    ]);
  } finally {
    clearTimeout(timer);
    giveUp.abort();
  }
}

function durationText(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}
