import type { IncomingMessage } from "node:http";
import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocket, WebSocketServer } from "ws";
import { type AccessRules, checkAccess } from "./accessGuard.js";
import type { LiveSession, ResumePoint } from "./liveSession.js";
import type { SessionHub } from "./sessionHub.js";
import { pathSegments } from "./urlPath.js";

/**
 * A client that cannot keep up is cut off rather than buffered without bound; it reconnects with
 * the last seq it saw and the ring fills the gap.
 */
const maxClientBacklogBytes = 16 * 1024 * 1024;

/** Clients send nothing on this socket; a small cap keeps a hostile one from costing memory. */
const maxIncomingBytes = 64 * 1024;

export interface EventSockets {
  /** The HTTP server's `upgrade` handler. */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Closes every event socket (server shutdown). */
  close(): void;
}

/**
 * `GET /api/sessions/:id/events?since=SEQ&stream=ID` upgraded to a WebSocket: the session's events
 * after `since`, then live ones, one JSON message each (the order is in `serverMessageSchema`, in the protocol package).
 */
export function eventSockets(hub: SessionHub, rules: AccessRules): EventSockets {
  const server = new WebSocketServer({ noServer: true, maxPayload: maxIncomingBytes });
  return {
    upgrade(request, socket, head) {
      // Until ws owns the socket, a client that resets it must not crash the server.
      const dropped = () => socket.destroy();
      socket.on("error", dropped);
      const url = new URL(request.url ?? "/", "http://localhost");
      const access = checkAccess(request, url, rules);
      if (!access.ok) return refuse(socket, access.status, access.code, access.message);
      const segments = pathSegments(url.pathname);
      const [api, sessions, id, events, ...extra] = segments ?? [];
      if (
        api !== "api" ||
        sessions !== "sessions" ||
        id === undefined ||
        events !== "events" ||
        extra.length > 0
      ) {
        return refuse(socket, 404, "E_NOT_FOUND", `No event stream at ${url.pathname}.`);
      }
      const live = hub.get(id);
      if (!live) return refuse(socket, 404, "E_SESSION_NOT_FOUND", `No open session ${id}.`);
      const resume = resumePoint(url);
      if (resume === undefined) {
        return refuse(
          socket,
          400,
          "E_INVALID_ARGS",
          "since must be an integer of -1 or more (the last seq seen).",
        );
      }
      socket.off("error", dropped);
      server.handleUpgrade(request, socket, head, (ws) => stream(ws, live, resume));
    },
    close() {
      for (const ws of server.clients) ws.close(1001, "server shutting down");
      server.close();
    },
  };
}

function stream(ws: WebSocket, live: LiveSession, resume: ResumePoint): void {
  // Socket errors end the connection; the client reconnects with `since`.
  ws.on("error", () => ws.terminate());
  const detach = live.attach(
    {
      send(data) {
        if (ws.readyState !== WebSocket.OPEN) return;
        if (ws.bufferedAmount > maxClientBacklogBytes) {
          ws.close(1013, "too far behind; reconnect with since");
          return;
        }
        ws.send(data);
      },
      end() {
        ws.close(1000, "session closed");
      },
    },
    resume,
  );
  ws.on("close", detach);
}

/** `since` absent means everything still held; `stream` names the stream the client saw. */
function resumePoint(url: URL): ResumePoint | undefined {
  const text = url.searchParams.get("since");
  const since = text === null || text === "" ? -1 : Number(text);
  if (!Number.isSafeInteger(since) || since < -1) return undefined;
  const streamId = url.searchParams.get("stream");
  return streamId ? { since, streamId } : { since };
}

function refuse(socket: Duplex, status: number, code: string, message: string): void {
  const body = JSON.stringify({ error: { code, message } });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      "Content-Type: application/json; charset=utf-8\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      "Connection: close\r\n\r\n" +
      body,
  );
}
