import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { ToolDefinition } from "../tools/tool.js";
import type { McpConnection } from "./mcpConnection.js";
import { callMcpTool } from "./mcpToolCall.js";
import { mcpToolName } from "./toolNames.js";

/**
 * Any JSON object: the server checks its own arguments against its own JSON Schema, which no zod
 * schema could restate faithfully.
 */
const mcpArgumentsSchema = z.record(z.string(), z.unknown());

/**
 * A Lathe tool backed by an MCP server's tool. `inputJsonSchema` is what the model is shown in
 * place of the JSON Schema the registry would derive from `schema`.
 */
export type McpToolDefinition = ToolDefinition<typeof mcpArgumentsSchema> & {
  inputJsonSchema: Record<string, unknown>;
};

export function createMcpTool(connection: McpConnection, tool: Tool, timeoutMs: number): McpToolDefinition {
  const { $schema: _dialect, ...inputJsonSchema } = tool.inputSchema;
  return {
    name: mcpToolName(connection.name, tool.name),
    description: describe(tool, connection.name),
    schema: mcpArgumentsSchema,
    inputJsonSchema,
    kind: "other",
    // Unknown until the user says otherwise with a rule (`mcp__server__*`): the policy asks.
    risk: () => "high",
    timeoutMs,
    truncation: "head",
    execute: (args, ctx) => callMcpTool({ connection, tool: tool.name, args, signal: ctx.signal, timeoutMs }),
  };
}

function describe(tool: Tool, server: string): string {
  const own = (tool.description ?? tool.title ?? "").trim();
  return own === "" ? `The tool ${tool.name} (MCP server ${server})` : `${own}\n\n(MCP server ${server})`;
}
