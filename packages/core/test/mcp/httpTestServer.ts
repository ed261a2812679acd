import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

export interface HttpTestServer {
  /** The MCP endpoint, on 127.0.0.1. */
  url: string;
  /** Sessions the server still holds: each client that has not ended its own. */
  openSessions(): number;
  close(): Promise<void>;
}

/**
 * A real streamable-HTTP MCP server, one McpServer per session as the SDK expects. Its `whoami`
 * tool echoes the Authorization header, so tests can see configured headers arrive.
 */
export async function startHttpTestServer(): Promise<HttpTestServer> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const sessionId = request.headers["mcp-session-id"];
    const existing = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    if (existing !== undefined) return existing.handleRequest(request, response);
    if (sessionId !== undefined) {
      response.writeHead(404).end("unknown session");
      return;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await sessionServer(request).connect(transport);
    await transport.handleRequest(request, response);
  };

  const http = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/mcp`,
    openSessions: () => sessions.size,
    close: async () => {
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function sessionServer(request: IncomingMessage): McpServer {
  const server = new McpServer({ name: "lathe-test-http", version: "1.0.0" });
  server.registerTool(
    "add",
    { description: "Adds two numbers.", inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }),
  );
  server.registerTool("whoami", { description: "Echoes the Authorization header." }, async () => ({
    content: [{ type: "text", text: request.headers.authorization ?? "anonymous" }],
  }));
  return server;
}
