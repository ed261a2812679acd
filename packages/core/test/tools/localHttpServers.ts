import { once } from "node:events";
import http, { type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface SeenRequest {
  method: string;
  /** Path and query, as the server received them. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface LocalServer {
  /** `http://127.0.0.1:<port>` (or the given host). */
  origin: string;
  port: number;
  requests: SeenRequest[];
}

export type LocalHandler = (request: SeenRequest, response: ServerResponse, server: LocalServer) => void;

const running: http.Server[] = [];

/**
 * A real HTTP server on a local address (127.0.0.1 unless told otherwise) that records each
 * request, body included, before handing it to `handler`. Tests never reach a public address.
 */
export async function startLocalServer(handler: LocalHandler, host = "127.0.0.1"): Promise<LocalServer> {
  const state: LocalServer = { origin: "", port: 0, requests: [] };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const seen = {
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      state.requests.push(seen);
      handler(seen, response, state);
    });
  });
  server.listen(0, host);
  await once(server, "listening");
  state.port = (server.address() as AddressInfo).port;
  state.origin = `http://${host.includes(":") ? `[${host}]` : host}:${state.port}`;
  running.push(server);
  return state;
}

/** Stops every server started so far, dropping open connections (a server that never answers). */
export async function closeLocalServers(): Promise<void> {
  await Promise.all(
    running.splice(0).map((server) => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    }),
  );
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}
