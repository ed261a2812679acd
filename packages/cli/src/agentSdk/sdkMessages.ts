import type { RunResult } from "@lathe/core";
import { newId } from "@lathe/protocol";

/**
 * The lines of Claude Code's `stream-json` that the Claude Agent SDK types (`SDKMessage`): the
 * shapes only, filled from Lathe's events by `output/streamJsonOutput.ts`. Every line carries the
 * session id and a fresh uuid, as the SDK's types require.
 */
export type SdkLine = Record<string, unknown>;

export interface SdkSystemInit {
  sessionId: string;
  cwd: string;
  model: string;
  tools: string[];
  mcpServers: { name: string; status: string }[];
  permissionMode: string;
  version: string;
}

export function systemInitLine(init: SdkSystemInit): SdkLine {
  return {
    type: "system",
    subtype: "init",
    session_id: init.sessionId,
    uuid: newId(),
    cwd: init.cwd,
    model: init.model,
    tools: init.tools,
    mcp_servers: init.mcpServers,
    permissionMode: init.permissionMode,
    // Lathe offers no slash commands of Claude Code's kind (yet).
    slash_commands: [],
    // Lathe reads no Anthropic credential of Claude Code's own: keys come from its providers.
    apiKeySource: "none",
    claude_code_version: init.version,
    output_style: "default",
    skills: [],
    plugins: [],
  };
}

/** A content block of an assistant message: text, thinking or a tool call, as the Messages API has them. */
export type AssistantBlock =
  | { type: "text"; text: string; citations: null }
  | { type: "thinking"; thinking: string; signature: string }
  | { type: "tool_use"; id: string; name: string; input: unknown };

/**
 * One block of the model's answer, sent as soon as it is complete, in a message whose id all the
 * blocks of one model call share (Claude Code streams an answer the same way).
 */
export function assistantLine(
  sessionId: string,
  messageId: string,
  model: string,
  block: AssistantBlock,
): SdkLine {
  return {
    type: "assistant",
    session_id: sessionId,
    uuid: newId(),
    parent_tool_use_id: null,
    message: {
      id: messageId,
      type: "message",
      role: "assistant",
      model,
      content: [block],
      stop_reason: null,
      stop_sequence: null,
      stop_details: null,
      container: null,
      context_management: null,
      diagnostics: null,
      usage: messageUsage(),
    },
  };
}

/** A tool's result, sent back to the model as the user's turn: Claude Code's `user` message. */
export function toolResultLine(
  sessionId: string,
  toolUseId: string,
  content: string,
  isError: boolean,
  structured: unknown,
): SdkLine {
  return {
    type: "user",
    session_id: sessionId,
    uuid: newId(),
    parent_tool_use_id: null,
    message: {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: toolUseId, content, is_error: isError }],
    },
    tool_use_result: structured,
  };
}

/** A notice of Lathe's as the SDK's `informational` message, its code beside it. */
export function informationalLine(sessionId: string, level: string, content: string, code?: string): SdkLine {
  return {
    type: "system",
    subtype: "informational",
    session_id: sessionId,
    uuid: newId(),
    content,
    level: level === "error" || level === "warn" ? "warning" : "info",
    code,
  };
}

/** A raw event of the model's stream (`--include-partial-messages`), as the Messages API names them. */
export function streamEventLine(sessionId: string, event: Record<string, unknown>): SdkLine {
  return { type: "stream_event", session_id: sessionId, uuid: newId(), parent_tool_use_id: null, event };
}

/** How a run ended, under Claude Code's result subtypes. */
export function resultSubtype(result: RunResult): "success" | "error_max_turns" | "error_during_execution" {
  if (result.status === "completed") return "success";
  if (result.status === "iteration_limit") return "error_max_turns";
  return "error_during_execution";
}

/**
 * The closing line of a run. An error result always has `errors` (the SDK's iterator fails on one
 * without), and Lathe's own `status` and `error` ride along for readers that want them.
 */
export function resultLine(sessionId: string, result: RunResult, durationMs: number): SdkLine {
  const subtype = resultSubtype(result);
  const errors =
    subtype === "success"
      ? undefined
      : [
          result.error?.message ??
            (result.status === "iteration_limit" ? "Reached the iteration limit." : result.status),
        ];
  return {
    type: "result",
    subtype,
    is_error: subtype !== "success",
    duration_ms: durationMs,
    duration_api_ms: durationMs,
    num_turns: result.iterations,
    result: result.final,
    stop_reason: null,
    session_id: sessionId,
    uuid: newId(),
    total_cost_usd: result.usage.costUsd ?? 0,
    usage: {
      ...messageUsage(),
      input_tokens: result.usage.inputTokens,
      output_tokens: result.usage.outputTokens,
      cache_read_input_tokens: result.usage.cachedInputTokens,
      output_tokens_details: { thinking_tokens: result.usage.reasoningTokens },
      cached_input_tokens: result.usage.cachedInputTokens,
      reasoning_tokens: result.usage.reasoningTokens,
    },
    modelUsage: {},
    permission_denials: [],
    ...(errors ? { errors } : {}),
    status: result.status,
    error: result.error,
  };
}

/**
 * The Messages API's usage block with every field present. A single block of an answer carries no
 * usage of its own (the run's total is in its result), so its counts are zero.
 */
function messageUsage() {
  return {
    input_tokens: 0,
    output_tokens: 0,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 0 },
    output_tokens_details: { thinking_tokens: 0 },
    server_tool_use: { web_fetch_requests: 0, web_search_requests: 0 },
    iterations: [],
    inference_geo: "",
    service_tier: "standard",
    speed: "standard",
    fallback_credit: null,
  };
}
