import { loadMcpConfig, type McpServerConfig } from "@lathe/core";
import type { McpServerList } from "@lathe/protocol";
import { type ServiceResult, served } from "@lathe/server";

/**
 * Every `${env:NAME}` reads as itself, so a listing shows the configuration as written: a token
 * passed through the environment never reaches the client.
 */
const variablesAsWritten: Readonly<Record<string, string | undefined>> = new Proxy(
  {},
  { get: (_target, name) => (typeof name === "string" ? `\${env:${name}}` : undefined) },
);

/**
 * The MCP servers a session in the project would start: `$LATHE_HOME/mcp.json`, then
 * `.cursor/mcp.json`, then `.lathe/mcp.json`, a later file's server replacing an earlier one of
 * the same name. Entries that are wrong are left out, as a session leaves them out.
 */
export function listMcpServers(latheHome: string, projectRoot: string): ServiceResult<McpServerList> {
  const { servers } = loadMcpConfig({ projectRoot, latheHome, env: variablesAsWritten });
  return served({
    servers: servers.map((server) => ({
      name: server.name,
      transport: server.transport,
      target: targetOf(server),
      source: server.source,
    })),
  });
}

function targetOf(server: McpServerConfig): string {
  if (server.transport === "http") return server.url;
  return [server.command, ...server.args].map(shellWord).join(" ");
}

/** An argument as a shell would need it, so the command line reads unambiguously. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
