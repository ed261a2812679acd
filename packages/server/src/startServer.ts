import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type AccessRules, checkAccess, tokenCookie } from "./accessGuard.js";
import type { ApiContext } from "./apiContext.js";
import { cloudEventStreamTask, streamCloudEvents } from "./cloudEventStream.js";
import { eventSockets } from "./eventSocket.js";
import { errorReply, sendReply } from "./httpJson.js";
import { routeApi } from "./httpRoutes.js";
import { ProjectPathCache } from "./projectPaths.js";
import { ServedProjects } from "./servedProjects.js";
import type { SessionFactory } from "./sessionFactory.js";
import { SessionHub } from "./sessionHub.js";
import { serveStatic } from "./staticFiles.js";
import type { WorkspaceServices } from "./workspaceServices.js";

export interface ServerOptions {
  /** The interface to listen on (default 127.0.0.1: this machine only). */
  host?: string;
  /** 0 or absent: any free port. */
  port?: number;
  /** The access token (default: 32 random bytes, hex). */
  token?: string;
  factory: SessionFactory;
  /**
   * Stored sessions, checkpoints, traces, settings, keys, memories, rules and MCP servers, as the
   * face keeps them; absent, those routes answer 501 (project files and mentions still work).
   */
  services?: WorkspaceServices;
  /** The built web UI, served at `/`; absent: a placeholder page. */
  staticDir?: string;
  /** Events kept per session for clients that reconnect (default 20,000). */
  maxBufferedEvents?: number;
}

export interface RunningServer {
  /** `http://HOST:PORT/?token=…`: the URL to open (and print). */
  url: string;
  /** `http://HOST:PORT`. */
  origin: string;
  token: string;
  /** Stops listening, closes every event socket and every session. */
  close(): Promise<void>;
}

/** SPEC §8 `lathe serve`: HTTP API and WebSocket event streams for many sessions and projects. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  const token = options.token ?? randomBytes(32).toString("hex");
  const hub = new SessionHub(options.factory, options.maxBufferedEvents ?? 20_000);
  // The port is known only after listening; the guard reads it then.
  const rules: AccessRules = { token, host, port: 0 };
  const sockets = eventSockets(hub, rules);
  const context: ApiContext = {
    hub,
    projectPaths: new ProjectPathCache(),
    projects: new ServedProjects(hub, options.services),
    services: options.services,
  };
  const server = createServer((request, response) => {
    handle(request, response, context, rules, options.staticDir).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      if (!response.headersSent) sendReply(response, errorReply(500, "E_INTERNAL", message));
      else response.destroy();
    });
  });
  server.on("upgrade", sockets.upgrade);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  rules.port = (server.address() as AddressInfo).port;
  const origin = `http://${host.includes(":") ? `[${host}]` : host}:${rules.port}`;
  let closing: Promise<void> | undefined;
  return {
    url: `${origin}/?token=${token}`,
    origin,
    token,
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        sockets.close();
        server.closeAllConnections();
        await hub.closeAll();
        await stopped;
      })();
      return closing;
    },
  };
}

async function handle(
  request: IncomingMessage,
  response: ServerResponse,
  context: ApiContext,
  rules: AccessRules,
  staticDir: string | undefined,
): Promise<void> {
  const url = new URL(request.url ?? "/", "http://localhost");
  const access = checkAccess(request, url, rules);
  if (!access.ok) return sendReply(response, errorReply(access.status, access.code, access.message));
  // The one long-lived HTTP answer: a cloud task's events, streamed rather than replied.
  const streamedTask = cloudEventStreamTask(url);
  if (streamedTask !== undefined) return streamCloudEvents(request, response, url, streamedTask, context);
  if (url.pathname === "/api" || url.pathname.startsWith("/api/")) {
    return sendReply(response, await routeApi(request, url, context));
  }
  const method = request.method;
  if (method !== "GET" && method !== "HEAD") {
    return sendReply(response, errorReply(405, "E_METHOD_NOT_ALLOWED", "Pages are read with GET."));
  }
  if (access.viaQuery) {
    // Trade the token in the URL for a cookie, and drop it from the address bar and history.
    url.searchParams.delete("token");
    response.writeHead(303, {
      location: `${url.pathname}${url.search}`,
      "set-cookie": tokenCookie(rules.token, rules.port),
      "referrer-policy": "no-referrer",
      "cache-control": "no-store",
    });
    response.end();
    return;
  }
  await serveStatic(staticDir, url.pathname, method, response);
}
