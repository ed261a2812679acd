import type { AnyTool, ToolRegistry } from "@lathe/core";

/** The tools a session adds beside the built-ins (sessionTools): they reach the network. */
export const webToolNames: readonly string[] = ["web_search", "web_fetch", "browser_use", "generate_image"];

const descriptionWidth = 90;

/**
 * A session's tools in this folder, one line each, in three groups: built-in, web, and the MCP
 * servers' (`mcp__server__tool`), so `--help` shows every name a call or a rule may use.
 */
export function toolListing(registry: ToolRegistry): string {
  const tools = registry.list();
  const width = Math.max(...tools.map((tool) => tool.name.length));
  const line = (tool: AnyTool) => `  ${tool.name.padEnd(width)}  ${summary(tool.description)}`;
  const web = tools.filter((tool) => webToolNames.includes(tool.name));
  const mcp = tools.filter((tool) => tool.name.startsWith("mcp__"));
  const builtin = tools.filter((tool) => !web.includes(tool) && !mcp.includes(tool));
  const mcpLines =
    mcp.length > 0
      ? mcp.map(line)
      : ["  (none: no MCP server is configured, or none started; see lathe mcp list --status)"];
  return [
    "Built-in tools:",
    ...builtin.map(line),
    "Web tools:",
    ...web.map(line),
    "MCP tools (mcp__<server>__<tool>):",
    ...mcpLines,
    "",
  ].join("\n");
}

/** The first sentence of a tool's description, short enough for one line of a listing. */
function summary(description: string): string {
  const firstLine = description.split("\n")[0] ?? "";
  const sentence = /^(.*?[.!?])(\s|$)/.exec(firstLine)?.[1] ?? firstLine;
  return sentence.length <= descriptionWidth ? sentence : `${sentence.slice(0, descriptionWidth - 1)}…`;
}
