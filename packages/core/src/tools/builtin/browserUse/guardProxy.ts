import http, { type IncomingMessage, type ServerResponse } from "node:http";
import net from "node:net";
import type { Duplex } from "node:stream";
import { type AddressAllowances, checkUrl } from "../../../policy/networkGuard/index.js";
import { pinnedLookup } from "../../../policy/networkGuard/pinnedLookup.js";

/** A request of the page that the network guard refused. */
export interface Refusal {
  url: string;
  reason: string;
}

/** Marks the proxy's own refusal answers, so a navigation that ends on one is reported as blocked. */
export const refusalHeader = "x-lathe-network-guard";

/** Headers that describe one connection, not the message, and must not be passed on. */
const hopByHopHeaders = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/** Refusals remembered between two actions; a page hammering a blocked host must not grow memory. */
const maxRefusalsKept = 50;

/**
 * The browser's only way out: a forward proxy on loopback that judges every request with the
 * network guard — navigations, redirect hops, subresources, scripts' fetches and WebSockets alike —
 * and connects to the address it checked, so DNS rebinding cannot steer the browser elsewhere.
 * Checking only the URL the model names would leave redirects and page scripts unguarded (SPEC §5).
 * Plain HTTP arrives as absolute-form requests; HTTPS and WebSockets as CONNECT tunnels.
 */
export class GuardProxy {
  private refusals: Refusal[] = [];
  private readonly sockets = new Set<Duplex>();
  private readonly server: http.Server;

  private constructor(
    /** Read on every request, so a changed setting applies from the next request on. */
    public allowances: AddressAllowances,
  ) {
    this.server = http.createServer((request, response) => {
      this.forward(request, response).catch(() => response.destroy());
    });
    this.server.on("connection", (socket: Duplex) => this.track(socket));
    this.server.on("connect", (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      this.tunnel(request, socket, head).catch(() => socket.destroy());
    });
  }

  static async start(allowances: AddressAllowances): Promise<GuardProxy> {
    const proxy = new GuardProxy(allowances);
    await new Promise<void>((resolve, reject) => {
      proxy.server.once("error", reject);
      proxy.server.listen(0, "127.0.0.1", () => resolve());
    });
    return proxy;
  }

  /** What the browser is told to use as its proxy server. */
  get url(): string {
    const address = this.server.address();
    if (address === null || typeof address === "string") throw new Error("The guard proxy is not listening.");
    return `http://127.0.0.1:${address.port}`;
  }

  /** The refusals since the last call. */
  takeRefusals(): Refusal[] {
    const taken = this.refusals;
    this.refusals = [];
    return taken;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async forward(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const target = request.url ?? "";
    // The browser sends plain HTTP in absolute form; anything else was not meant for a proxy.
    if (!/^http:\/\//i.test(target)) {
      response
        .writeHead(400, { "content-type": "text/plain" })
        .end("Lathe's browser proxy forwards http:// only.");
      return;
    }
    const checked = await checkUrl(target, this.allowances);
    if (!checked.ok) {
      const { message } = checked.error;
      if (checked.error.code !== "E_NETWORK_BLOCKED") {
        // A name that does not resolve is a failure, not a refusal, and is not reported as one.
        response.writeHead(502, { "content-type": "text/plain; charset=utf-8" }).end(message);
        return;
      }
      this.refuse(target, message);
      response
        .writeHead(403, { "content-type": "text/plain; charset=utf-8", [refusalHeader]: "refused" })
        .end(`Lathe's network guard refused this request: ${message}`);
      return;
    }
    const upstream = http.request(checked.url, {
      method: request.method,
      headers: endToEndHeaders(request.rawHeaders),
      agent: false,
      lookup: checked.literal ? undefined : pinnedLookup(checked.hostname, checked.addresses),
    });
    upstream.on("response", (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEndHeaders(answer.rawHeaders));
      answer.pipe(response);
    });
    upstream.on("error", (error) => {
      if (response.headersSent) {
        response.destroy();
        return;
      }
      response
        .writeHead(502, { "content-type": "text/plain; charset=utf-8" })
        .end(`Lathe's browser proxy could not reach ${checked.url.host}: ${error.message}`);
    });
    // The browser gave up on the request (navigated away, timed out): so does the proxy.
    response.on("close", () => upstream.destroy());
    request.pipe(upstream);
  }

  private async tunnel(request: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    client.on("error", () => client.destroy());
    const authority = request.url ?? "";
    const target = parseAuthority(authority);
    if (target === undefined) {
      client.end("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    const checked = await checkUrl(target.url, this.allowances);
    const address = checked.ok ? checked.addresses[0] : undefined;
    if (!checked.ok || address === undefined) {
      if (!checked.ok && checked.error.code === "E_NETWORK_BLOCKED") {
        this.refuse(`https://${authority}/`, checked.error.message);
        client.end(`HTTP/1.1 403 Forbidden\r\n${refusalHeader}: refused\r\nContent-Length: 0\r\n\r\n`);
      } else {
        client.end("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n");
      }
      return;
    }
    const upstream = net.connect({ host: address.address, port: target.port });
    this.track(upstream);
    let connected = false;
    upstream.once("connect", () => {
      connected = true;
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on("error", () => {
      if (connected) client.destroy();
      else client.end("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n");
    });
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  }

  private refuse(url: string, reason: string): void {
    this.refusals.push({ url, reason });
    if (this.refusals.length > maxRefusalsKept) this.refusals.shift();
  }

  private track(socket: Duplex): void {
    this.sockets.add(socket);
    socket.once("close", () => this.sockets.delete(socket));
  }
}

/** `host:port` of a CONNECT request as a URL the guard can judge, or undefined when malformed. */
function parseAuthority(authority: string): { url: URL; port: number } | undefined {
  let url: URL;
  try {
    url = new URL(`https://${authority}/`);
  } catch {
    return undefined;
  }
  // Anything beyond host and port (a path, a query, credentials) means the authority was not one.
  if (url.pathname !== "/" || url.search !== "" || url.hash !== "" || url.username !== "") return undefined;
  return { url, port: url.port === "" ? 443 : Number(url.port) };
}

/** Raw headers (`[name, value, name, value…]`) without the hop-by-hop ones and the guard's marker. */
function endToEndHeaders(rawHeaders: readonly string[]): string[] {
  const kept: string[] = [];
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    const name = rawHeaders[index] ?? "";
    const lower = name.toLowerCase();
    // A site must not be able to pass its own response off as the guard's refusal.
    if (!hopByHopHeaders.has(lower) && lower !== refusalHeader) kept.push(name, rawHeaders[index + 1] ?? "");
  }
  return kept;
}
