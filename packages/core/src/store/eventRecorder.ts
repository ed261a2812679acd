import type { DatabaseSync, StatementSync } from "node:sqlite";
import type { LatheEvent, ToolCallState } from "@lathe/protocol";
import { currentProcess } from "../processIdentity/processIdentity.js";

const terminalStates: ReadonlySet<ToolCallState> = new Set(["success", "error", "rejected", "cancelled"]);

/** What the answer to an approval was, read from the state its call moved to next. */
function approvalDecision(state: ToolCallState): string | undefined {
  if (state === "scheduled" || state === "executing") return "approved";
  if (state === "rejected") return "rejected";
  if (state === "cancelled") return "cancelled";
  if (state === "error") return "failed";
  return undefined;
}

/**
 * Writes the facts of the event stream that outlive a run: runs, tool calls, approvals and
 * usage. Each event is one small statement, written before the next event is emitted, so a
 * killed process loses at most the event in flight.
 */
export class EventRecorder {
  private readonly statements: Record<string, StatementSync>;
  /** The model of each run, for its usage rows. */
  private readonly runModels = new Map<string, string>();

  constructor(
    db: DatabaseSync,
    private readonly redact: (text: string) => string,
  ) {
    this.statements = {
      // With this process as its owner, so that a run it never ends is found once it is gone.
      runStart: db.prepare(
        `INSERT OR IGNORE INTO runs (id, session_id, prompt, mode, model, started_at, owner_pid, owner_start_ticks)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      runComplete: db.prepare(
        `UPDATE runs SET status = ?, iterations = ?, error_code = ?, error_message = ?, ended_at = ?, duration_ms = ?
         WHERE id = ?`,
      ),
      touchSession: db.prepare("UPDATE sessions SET updated_at = ? WHERE id = ?"),
      callReady: db.prepare(
        `INSERT OR IGNORE INTO tool_calls (call_id, session_id, run_id, name, arguments, state, started_at)
         VALUES (?, ?, ?, ?, ?, 'validating', ?)`,
      ),
      callState: db.prepare("UPDATE tool_calls SET state = ?, ended_at = ? WHERE call_id = ?"),
      // The output itself lives in the tool message's result part; stored once is enough.
      callDone: db.prepare("UPDATE tool_calls SET duration_ms = ? WHERE call_id = ?"),
      callError: db.prepare(
        "UPDATE tool_calls SET error_code = ?, error_message = ?, duration_ms = ? WHERE call_id = ?",
      ),
      approvalAsked: db.prepare(
        `INSERT OR IGNORE INTO approvals (id, session_id, call_id, tool, risk, reason, requested_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ),
      approvalAnswered: db.prepare(
        "UPDATE approvals SET decision = ?, answered_at = ? WHERE call_id = ? AND decision IS NULL",
      ),
      usage: db.prepare(
        `INSERT INTO usage (session_id, run_id, model, input_tokens, output_tokens, cached_input_tokens,
           reasoning_tokens, cost_usd, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
    };
  }

  record(event: LatheEvent): void {
    const s = this.statements;
    switch (event.type) {
      case "run_start": {
        this.runModels.set(event.runId, event.model);
        const owner = currentProcess();
        s.runStart!.run(
          event.runId,
          event.sessionId,
          this.redact(event.prompt),
          event.mode,
          event.model,
          event.at,
          owner.pid,
          owner.startTicks ?? null,
        );
        s.touchSession!.run(event.at, event.sessionId);
        return;
      }
      case "run_complete":
        this.runModels.delete(event.runId);
        s.runComplete!.run(
          event.reason,
          event.iterations,
          event.error?.code ?? null,
          event.error ? this.redact(event.error.message) : null,
          event.at,
          event.durationMs,
          event.runId,
        );
        s.touchSession!.run(event.at, event.sessionId);
        return;
      case "tool_call_ready":
        s.callReady!.run(
          event.callId,
          event.sessionId,
          event.runId,
          event.name,
          this.redact(JSON.stringify(event.arguments ?? null)),
          event.at,
        );
        return;
      case "tool_call_state": {
        s.callState!.run(event.state, terminalStates.has(event.state) ? event.at : null, event.callId);
        const decision = event.state === "awaiting_approval" ? undefined : approvalDecision(event.state);
        if (decision) s.approvalAnswered!.run(decision, event.at, event.callId);
        return;
      }
      case "tool_completed":
        s.callDone!.run(event.durationMs, event.callId);
        return;
      case "tool_failed":
        s.callError!.run(event.error.code, this.redact(event.error.message), event.durationMs, event.callId);
        return;
      case "tool_blocked":
        s.callError!.run(event.error.code, this.redact(event.error.message), 0, event.callId);
        return;
      case "tool_rejected":
        s.callError!.run("E_USER_REJECTED", this.redact(event.message), 0, event.callId);
        return;
      case "approval_required":
        s.approvalAsked!.run(
          event.approvalId,
          event.sessionId,
          event.callId,
          event.name,
          event.risk,
          this.redact(event.reason),
          event.at,
        );
        return;
      case "usage":
        s.usage!.run(
          event.sessionId,
          event.runId,
          this.runModels.get(event.runId) ?? "",
          event.usage.inputTokens,
          event.usage.outputTokens,
          event.usage.cachedInputTokens,
          event.usage.reasoningTokens,
          event.usage.costUsd,
          event.at,
        );
        return;
      default:
        return;
    }
  }
}
