import type { McpHub, McpHubOptions } from "./mcpHub.js";

export type { ConfigVariables } from "./configVariables.js";
export {
  loadMcpConfig,
  loadMcpConfigFile,
  type McpConfigLocations,
  mcpConfigFiles,
} from "./loadMcpConfig.js";
export {
  type HttpServerConfig,
  type LoadedMcpConfig,
  type McpConfigError,
  type McpServerConfig,
  parseMcpConfig,
  type StdioServerConfig,
} from "./mcpConfig.js";
export type {
  McpHub,
  McpHubOptions,
  McpListing,
  McpPromptInfo,
  McpPromptText,
  McpResourceInfo,
  McpServerFailure,
  McpStartReport,
} from "./mcpHub.js";
export type { McpHubChange, McpServerState, McpServerStatus } from "./mcpServerStatus.js";
export { type McpNotice, McpSessionFeed, type SessionMcp } from "./mcpSessionFeed.js";
export type { McpToolDefinition } from "./mcpTool.js";
export type { PromptExpansion } from "./promptCommand.js";
export { mcpPromptCommand, mcpToolName } from "./toolNames.js";

/** An MCP hub, its SDK loaded only when a project has MCP servers configured. */
export async function createMcpHub(options: McpHubOptions = {}): Promise<McpHub> {
  const { McpHub } = await import("./mcpHub.js");
  return new McpHub(options);
}
