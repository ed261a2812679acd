import type * as acp from "@agentclientprotocol/sdk";
import type { McpServerConfig } from "@lathe/core";

/** Where a message about one of these servers says it came from. */
const source = "the editor's session";

/**
 * The MCP servers an editor passes with `session/new` or `session/load`, as Lathe's own server
 * configs: stdio servers start in the project folder, HTTP ones are reached with their headers.
 * SSE, which Lathe does not advertise, is left out.
 */
export function clientMcpServers(servers: readonly acp.McpServer[], cwd: string): McpServerConfig[] {
  return servers.flatMap((server): McpServerConfig[] => {
    // Some editors send `type: "stdio"`, which the schema leaves out: a command is what counts.
    if ("command" in server)
      return [
        {
          name: server.name,
          source,
          transport: "stdio",
          command: server.command,
          args: server.args,
          env: Object.fromEntries(server.env.map((variable) => [variable.name, variable.value])),
          cwd,
        },
      ];
    if (server.type === "http")
      return [
        {
          name: server.name,
          source,
          transport: "http",
          url: server.url,
          headers: Object.fromEntries(server.headers.map((header) => [header.name, header.value])),
        },
      ];
    return [];
  });
}
