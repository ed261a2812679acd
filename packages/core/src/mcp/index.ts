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
export {
  McpHub,
  type McpHubOptions,
  type McpListing,
  type McpPromptInfo,
  type McpPromptText,
  type McpResourceInfo,
  type McpServerFailure,
  type McpStartReport,
} from "./mcpHub.js";
export type { McpToolDefinition } from "./mcpTool.js";
export { mcpToolName } from "./toolNames.js";
