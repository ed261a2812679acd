import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { McpServerConfig } from "./mcpConfig.js";
import { ProcessGroupStdioTransport } from "./processGroupTransport.js";

export type ServerTransport = ProcessGroupStdioTransport | StreamableHTTPClientTransport;

/** How long a remote server gets to forget our session when we leave. */
const endSessionMs = 1000;

export function createTransport(config: McpServerConfig): ServerTransport {
  if (config.transport === "stdio") {
    return new ProcessGroupStdioTransport({
      command: config.command,
      args: config.args,
      env: config.env,
      cwd: config.cwd,
    });
  }
  return new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers } });
}

/** What the server said on stderr, as a suffix for a failure message; "" when there is nothing. */
export function stderrNote(transport: ServerTransport): string {
  if (!(transport instanceof ProcessGroupStdioTransport) || transport.stderrTail === "") return "";
  return `\nstderr: ${transport.stderrTail}`;
}

/**
 * Tells a remote server the session is over, so it can free it now rather than at its own timeout;
 * a server that is gone or slow does not hold up closing.
 */
export async function endRemoteSession(transport: ServerTransport): Promise<void> {
  if (!(transport instanceof StreamableHTTPClientTransport) || transport.sessionId === undefined) return;
  const ending = transport.terminateSession().catch(() => undefined);
  await Promise.race([ending, new Promise((resolve) => setTimeout(resolve, endSessionMs).unref())]);
}
