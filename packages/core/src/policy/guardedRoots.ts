import path from "node:path";

/**
 * Directories outside the project that a tool's own path guard accepts, by tool: spilled tool
 * output is readable with `read_file`, and `browser_use` saves screenshots there. Every other
 * tool is held to the project alone. The policy's pre-check asks the path guard with these same
 * roots, so a call it lets through is one the tool would accept.
 */
export function extraRootsFor(toolName: string, latheHome: string): string[] {
  return toolsReachingToolOutput.has(toolName) ? [toolOutputRoot(latheHome)] : [];
}

/** `$LATHE_HOME/tool-output`, where long tool output is spilled. */
export function toolOutputRoot(latheHome: string): string {
  return path.join(latheHome, "tool-output");
}

const toolsReachingToolOutput: ReadonlySet<string> = new Set(["read_file", "browser_use"]);

/**
 * MCP tools run in their server's process, under that server's own rules: their path-like
 * arguments name whatever the server means by them, so the project's path guard does not judge
 * them (the sensitive-path list still does).
 */
export function isMcpToolName(toolName: string): boolean {
  return toolName.startsWith("mcp__");
}
