import { isDeepStrictEqual } from "node:util";
import type { ApprovalAnswer, ApprovalRequest } from "@lathe/core";
import { newId } from "@lathe/protocol";

/** What the driving program answered to one of our control requests. */
export type ControlAnswer = { ok: true; response: Record<string, unknown> } | { ok: false; error: string };

/**
 * The control protocol of Claude Code's stream-json, from Lathe's side: requests Lathe sends to
 * the program driving it (permission prompts) and their answers, matched by request id, and the
 * answers to the program's own requests. `write` prints one line on stdout.
 */
export class ControlChannel {
  private readonly waiting = new Map<string, (answer: ControlAnswer) => void>();
  /** `dontAsk`: what the policy would ask about is refused without asking anyone. */
  askNobody = false;

  constructor(private readonly write: (line: Record<string, unknown>) => void) {}

  /** Sends a request and waits for its answer; an aborted wait withdraws the request. */
  request(request: Record<string, unknown>, signal: AbortSignal): Promise<ControlAnswer> {
    const requestId = newId();
    return new Promise((resolve) => {
      const settle = (answer: ControlAnswer) => {
        signal.removeEventListener("abort", withdraw);
        this.waiting.delete(requestId);
        resolve(answer);
      };
      const withdraw = () => {
        this.write({ type: "control_cancel_request", request_id: requestId });
        settle({ ok: false, error: "withdrawn" });
      };
      if (signal.aborted) {
        resolve({ ok: false, error: "withdrawn" });
        return;
      }
      signal.addEventListener("abort", withdraw, { once: true });
      this.waiting.set(requestId, settle);
      this.write({ type: "control_request", request_id: requestId, request });
    });
  }

  /** A `control_response` line from the driving program; one for no request of ours is ignored. */
  receive(response: { subtype?: unknown; request_id?: unknown; response?: unknown; error?: unknown }): void {
    if (typeof response.request_id !== "string") return;
    const settle = this.waiting.get(response.request_id);
    if (!settle) return;
    if (response.subtype === "success") {
      const body = response.response;
      settle({
        ok: true,
        response: body !== null && typeof body === "object" ? (body as Record<string, unknown>) : {},
      });
    } else {
      settle({
        ok: false,
        error: typeof response.error === "string" ? response.error : "the request failed",
      });
    }
  }

  /** Answers one of the program's requests. */
  respond(requestId: string, answer: ControlAnswer): void {
    this.write({
      type: "control_response",
      response: answer.ok
        ? { subtype: "success", request_id: requestId, response: answer.response }
        : { subtype: "error", request_id: requestId, error: answer.error },
    });
  }

  /**
   * Asks the driving program about a call the policy asks about (the SDK's `canUseTool`). Allowed
   * arguments the program changed are not run as they are: the policy judged the model's, so the
   * model is told the new ones and calls again, and that call is judged in turn.
   */
  readonly requestApproval = async (
    request: ApprovalRequest,
    signal: AbortSignal,
  ): Promise<ApprovalAnswer> => {
    if (this.askNobody) {
      return { decision: "reject", message: "Not allowed without asking (permission mode dontAsk)." };
    }
    const answer = await this.request(
      {
        subtype: "can_use_tool",
        tool_name: request.name,
        input: request.arguments ?? {},
        tool_use_id: request.callId,
        decision_reason: request.reason,
        title: `Allow ${request.name}? (${request.risk} risk)`,
        description: request.reason,
      },
      signal,
    );
    if (!answer.ok) return { decision: "reject", message: `No permission: ${answer.error}.` };
    const { behavior, message, updatedInput } = answer.response;
    if (behavior !== "allow") {
      return { decision: "reject", message: typeof message === "string" && message ? message : undefined };
    }
    if (updatedInput !== undefined && !isDeepStrictEqual(updatedInput, request.arguments)) {
      return {
        decision: "reject",
        message: `The user allows this call with other arguments; call ${request.name} again with ${JSON.stringify(updatedInput)}.`,
      };
    }
    return { decision: "accept" };
  };
}
