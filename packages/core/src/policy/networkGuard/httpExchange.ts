import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import type { CheckedUrl } from "./checkUrl.js";
import { pinnedLookup } from "./pinnedLookup.js";

export interface ExchangeRequest {
  method: string;
  /** Lower-case names; `host` is never taken from here, it always names the checked host. */
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

export interface ExchangeResponse {
  message: IncomingMessage;
  /** The address the socket is connected to, for audit logs and for proving the pin held. */
  remoteAddress: string;
}

/**
 * Sends one request to a checked URL without following redirects. The socket is opened to the
 * checked addresses only (a literal is connected to as is; a name goes through a lookup that
 * answers from the checked list), while TLS SNI, certificate validation and the Host header keep
 * using the host name, so HTTPS still proves the server is who the URL names.
 */
export function sendRequest(
  target: CheckedUrl,
  request: ExchangeRequest,
  signal: AbortSignal,
): Promise<ExchangeResponse> {
  const { url } = target;
  const secure = url.protocol === "https:";
  const headers = { ...request.headers };
  delete headers.host;
  const options: https.RequestOptions = {
    method: request.method,
    hostname: target.hostname,
    port: url.port === "" ? (secure ? 443 : 80) : Number(url.port),
    path: `${url.pathname}${url.search}`,
    headers,
    signal,
    // A fresh agent per request: a pooled socket could belong to an earlier check of this host.
    agent: false,
  };
  if (!target.literal) {
    options.lookup = pinnedLookup(target.hostname, target.addresses);
    if (secure) options.servername = target.hostname;
  }
  return new Promise((resolve, reject) => {
    const onResponse = (message: IncomingMessage): void => {
      resolve({ message, remoteAddress: message.socket.remoteAddress ?? "" });
    };
    const outgoing = secure ? https.request(options, onResponse) : http.request(options, onResponse);
    outgoing.on("error", reject);
    if (request.body === undefined) outgoing.end();
    else outgoing.end(request.body);
  });
}
