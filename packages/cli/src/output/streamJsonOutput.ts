import { type AgentSession, type RunResult, redactDeep } from "@lathe/core";
import type { LatheEvent } from "@lathe/protocol";
import { AnswerBlocks } from "../agentSdk/answerBlocks.js";
import { toClaudePermissionMode } from "../agentSdk/permissionModes.js";
import { informationalLine, resultLine, systemInitLine, toolResultLine } from "../agentSdk/sdkMessages.js";

export interface RunInfo {
  session: AgentSession;
  cwd: string;
  model: string;
  version: string;
  /** `--include-partial-messages`: the model's stream as `stream_event` lines too. */
  includePartialMessages?: boolean;
  /** The MCP servers and their state when the session starts. */
  mcpServers?: { name: string; status: string }[];
  /**
   * Only lines of the Claude Agent SDK's own types (when the SDK drives the run): Lathe's own events
   * are left out, and its notices are the SDK's `informational` messages, so that a program whose
   * switch over the SDK's message types is exhaustive meets nothing else.
   */
  sdkMessagesOnly?: boolean;
}

/**
 * NDJSON as Claude Code prints it with `stream-json`, so the Claude Agent SDK and other readers of
 * that format can follow a run: `system/init`; `assistant` messages holding each text, thinking or
 * `tool_use` block as soon as the model has sent it; `user` messages holding each `tool_result`;
 * with `--include-partial-messages`, the model's stream as `stream_event` lines; and `result`.
 * Lathe's own events keep names of their own beside those (`tool_call` started/completed, as
 * Cursor's CLI prints them, and `system` lines of Lathe's subtypes: checkpoints, todos, notices…),
 * so a reader that switches on `type` and `subtype` passes over them.
 */
export function streamJsonOutput(info: RunInfo, write: (line: string) => void) {
  const sessionId = info.session.id;
  // Every line through the session's redactor: tool output, errors and the answer alike.
  const out = (value: Record<string, unknown>) =>
    write(`${JSON.stringify(redactDeep(value, info.session.redact))}\n`);
  const calls = new Map<string, unknown>();
  // Lathe's own lines: beside the SDK's, unless only the SDK's are wanted.
  const own = (value: Record<string, unknown>) => {
    if (!info.sdkMessagesOnly) out(value);
  };
  const { mode, approvalMode, tools } = info.session.setup;
  out({
    ...systemInitLine({
      sessionId,
      cwd: info.cwd,
      model: info.model,
      tools,
      mcpServers: info.mcpServers ?? [],
      permissionMode: toClaudePermissionMode(mode, approvalMode),
      version: info.version,
    }),
    mode,
    approval_mode: approvalMode,
    lathe_version: info.version,
  });
  const answer = new AnswerBlocks(
    sessionId,
    () => info.session.modelId,
    out,
    info.includePartialMessages ?? false,
  );
  const unsubscribe = info.session.subscribe((event: LatheEvent) => {
    switch (event.type) {
      case "text_delta":
        answer.add("text", event.delta);
        break;
      case "reasoning_delta":
        answer.add("thinking", event.delta);
        break;
      case "retry":
        answer.discard();
        own({
          type: "system",
          subtype: "retry",
          session_id: sessionId,
          attempt: event.attempt,
          delay_ms: event.delayMs,
          error: event.error,
        });
        break;
      case "turn_end":
        answer.endTurn();
        own({
          type: "system",
          subtype: "turn_end",
          session_id: sessionId,
          iteration: event.iteration,
          tool_calls: event.toolCalls,
        });
        break;
      case "checkpoint":
        own({
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
        own({
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
        own({
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
        own({
          type: "system",
          subtype: "plan_saved",
          session_id: sessionId,
          path: event.path,
          title: event.title,
        });
        break;
      case "notice":
        if (info.sdkMessagesOnly) out(informationalLine(sessionId, event.level, event.message, event.code));
        else
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
        answer.toolUse(event.callId, event.name, event.arguments);
        own({
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
        const content =
          event.type === "tool_completed"
            ? event.output
            : event.type === "tool_rejected"
              ? (event.message ?? "The user rejected this call.")
              : event.error.message;
        out(toolResultLine(sessionId, event.callId, content, event.type !== "tool_completed", result));
        own({
          type: "tool_call",
          subtype: "completed",
          session_id: sessionId,
          call_id: event.callId,
          tool_call: { name: event.name, args: calls.get(event.callId), result },
        });
        break;
      }
      case "approval_required":
        own({
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
    /** The run's closing line. */
    finish(result: RunResult, durationMs: number) {
      answer.endTurn();
      out(resultLine(sessionId, result, durationMs));
    },
    /** Stops following the session. */
    close() {
      unsubscribe();
    },
  };
}
