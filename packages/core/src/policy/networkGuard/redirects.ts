import type { ExchangeRequest } from "./httpExchange.js";

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/** Headers that describe a request body, dropped when a redirect turns the request into a GET. */
const bodyHeaders = [
  "content-type",
  "content-length",
  "content-encoding",
  "content-language",
  "content-location",
];

/** Headers that carry the caller's identity, never handed to another origin a server points at. */
const credentialHeaders = ["authorization", "cookie", "proxy-authorization"];

export function isRedirect(status: number): boolean {
  return redirectStatuses.has(status);
}

/**
 * The request to send to a redirect target, as browsers build it (Fetch standard): 303, and 301/302
 * after a POST, become a GET without body; 307/308 repeat the request. Credentials stay behind
 * when the origin changes, since the new origin was chosen by the server, not by the caller.
 */
export function redirectedRequest(
  previous: ExchangeRequest,
  status: number,
  from: URL,
  to: URL,
): ExchangeRequest {
  const headers = { ...previous.headers };
  let method = previous.method;
  let body = previous.body;
  const becomesGet =
    (status === 303 && method !== "GET" && method !== "HEAD") ||
    ((status === 301 || status === 302) && method === "POST");
  if (becomesGet) {
    method = "GET";
    body = undefined;
    for (const name of bodyHeaders) delete headers[name];
  }
  if (from.origin !== to.origin) {
    for (const name of credentialHeaders) delete headers[name];
  }
  return body === undefined ? { method, headers } : { method, headers, body };
}
