import { type AgentSession, type RunResult, redactDeep } from "@lathe/core";
import type { LatheEvent } from "@lathe/protocol";

export interface RunInfo {
  session: AgentSession;
  cwd: string;
  model: string;
  version: string;
}

/**
 * NDJSON close to what Claude Code and Cursor's CLI print with `stream-json`, so existing tooling
 * can read it: system/init, assistant and thinking deltas, full assistant messages, tool_call
 * started/completed, and a closing result line.
 */
export function streamJsonOutput(info: RunInfo, write: (line: string) => void) {
  const sessionId = info.session.id;
  // Every line through the session's redactor: tool output, errors and the answer alike.
  const out = (value: Record<string, unknown>) =>
    write(`${JSON.stringify(redactDeep(value, info.session.redact))}\n`);
  const calls = new Map<string, unknown>();
  let text = "";
  // The tools the session's mode offers; `permissionMode` is the approval mode, as Claude Code names it.
  const { mode, approvalMode, tools } = info.session.setup;
  out({
    type: "system",
    subtype: "init",
    session_id: sessionId,
    cwd: info.cwd,
    model: info.model,
    mode,
    permissionMode: approvalMode,
    tools,
    lathe_version: info.version,
  });
  const unsubscribe = info.session.subscribe((event: LatheEvent) => {
    switch (event.type) {
      case "text_delta":
        text += event.delta;
        out({ type: "assistant", subtype: "delta", session_id: sessionId, text: event.delta });
        break;
      case "reasoning_delta":
        out({ type: "thinking", subtype: "delta", session_id: sessionId, text: event.delta });
        break;
      case "retry":
        text = "";
        out({
          type: "system",
          subtype: "retry",
          session_id: sessionId,
          attempt: event.attempt,
          delay_ms: event.delayMs,
          error: event.error,
        });
        break;
      case "turn_end":
        if (text) {
          out({
            type: "assistant",
            session_id: sessionId,
            message: { role: "assistant", content: [{ type: "text", text }] },
          });
        }
        text = "";
        out({
          type: "system",
          subtype: "turn_end",
          session_id: sessionId,
          iteration: event.iteration,
          tool_calls: event.toolCalls,
        });
        break;
      case "checkpoint":
        out({
          type: "system",
          subtype: "checkpoint",
          session_id: sessionId,
          checkpoint_id: event.checkpointId,
          reason: event.reason,
          message_id: event.messageId,
          call_id: event.callId,
        });
        break;
      case "todos":
        out({
          type: "system",
          subtype: "todos",
          session_id: sessionId,
          todos: event.todos,
          completed: event.completed,
          live: event.live,
        });
        break;
      case "subagent_start":
      case "subagent_finish":
        out({
          type: "system",
          subtype: event.type,
          session_id: sessionId,
          subagent_id: event.subagentId,
          ...(event.type === "subagent_start"
            ? { agent: event.agent, description: event.description, call_id: event.callId }
            : { status: event.status, iterations: event.iterations, duration_ms: event.durationMs }),
        });
        break;
      case "plan_saved":
        out({
          type: "system",
          subtype: "plan_saved",
          session_id: sessionId,
          path: event.path,
          title: event.title,
        });
        break;
      case "notice":
        out({
          type: "system",
          subtype: "notice",
          session_id: sessionId,
          level: event.level,
          message: event.message,
          code: event.code,
        });
        break;
      case "tool_call_ready":
        calls.set(event.callId, event.arguments);
        out({
          type: "tool_call",
          subtype: "started",
          session_id: sessionId,
          call_id: event.callId,
          tool_call: { name: event.name, args: event.arguments },
        });
        break;
      case "tool_completed":
      case "tool_failed":
      case "tool_rejected":
      case "tool_blocked": {
        const result =
          event.type === "tool_completed"
            ? { status: "success", output: event.output }
            : event.type === "tool_rejected"
              ? { status: "rejected", message: event.message }
              : { status: event.type === "tool_blocked" ? "blocked" : "error", error: event.error };
        out({
          type: "tool_call",
          subtype: "completed",
          session_id: sessionId,
          call_id: event.callId,
          tool_call: { name: event.name, args: calls.get(event.callId), result },
        });
        break;
      }
      case "approval_required":
        out({
          type: "system",
          subtype: "approval_required",
          session_id: sessionId,
          call_id: event.callId,
          tool: event.name,
          risk: event.risk,
          reason: event.reason,
          always_rules: event.alwaysRules,
        });
        break;
    }
  });
  return {
    finish(result: RunResult, durationMs: number) {
      unsubscribe();
      out({
        type: "result",
        subtype: resultSubtype(result),
        is_error: result.status !== "completed",
        duration_ms: durationMs,
        num_turns: result.iterations,
        result: result.final,
        session_id: sessionId,
        usage: {
          input_tokens: result.usage.inputTokens,
          output_tokens: result.usage.outputTokens,
          cached_input_tokens: result.usage.cachedInputTokens,
          reasoning_tokens: result.usage.reasoningTokens,
        },
        total_cost_usd: result.usage.costUsd,
        error: result.error,
      });
    },
  };
}

function resultSubtype(result: RunResult): string {
  switch (result.status) {
    case "completed":
      return "success";
    case "iteration_limit":
      return "error_max_turns";
    case "cancelled":
      return "cancelled";
    default:
      return "error_during_execution";
  }
}
