import path from "node:path";
import { loadMcpConfig, type McpServerConfig } from "@lathe/core";
import type { McpServerList } from "@lathe/protocol";
import {
  type McpServerChange,
  type McpServerEntry,
  type ServiceResult,
  served,
  serviceError,
} from "@lathe/server";
import { changeMcpFile } from "./mcp/mcpFileWrite.js";

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
      removable: server.source === path.join(latheHome, "mcp.json"),
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

/**
 * A server added to or removed from the user's own `mcp.json`, for the web UI's Settings: checked
 * as a session would read it, written atomically with every other entry kept.
 */
export async function changeUserMcpServer(
  places: { latheHome: string; projectRoot: string },
  change: { kind: "add"; name: string; entry: McpServerEntry } | { kind: "remove"; name: string },
): Promise<ServiceResult<McpServerChange>> {
  const written = await changeMcpFile("user", change, places);
  if (written.ok) return served({ name: change.name, file: written.file });
  return serviceError(written.code === "E_STORAGE" ? "failed" : "invalid", written.code, written.message);
}
