import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

export interface AccessRules {
  token: string;
  /** The interface the server listens on, as configured. */
  host: string;
  port: number;
}

export type AccessVerdict =
  | {
      ok: true /** The token came in the query string: a page load from the printed URL. */;
      viaQuery: boolean;
    }
  | { ok: false; status: 401 | 403; code: string; message: string };

/**
 * Every request passes here, HTTP and WebSocket upgrade alike. The Host check stops DNS
 * rebinding (a hostile name resolving to 127.0.0.1), the Origin check stops other sites'
 * pages, and the token stops every other local program and user.
 */
export function checkAccess(request: IncomingMessage, url: URL, rules: AccessRules): AccessVerdict {
  const hosts = allowedHosts(rules);
  const host = request.headers.host?.toLowerCase();
  if (host === undefined || !hosts.includes(host)) {
    return {
      ok: false,
      status: 403,
      code: "E_FORBIDDEN_HOST",
      message: `Host ${host ?? "(none)"} is not this server.`,
    };
  }
  const origin = request.headers.origin;
  if (origin !== undefined && !hosts.some((allowed) => origin.toLowerCase() === `http://${allowed}`)) {
    return {
      ok: false,
      status: 403,
      code: "E_FORBIDDEN_ORIGIN",
      message: `Origin ${origin} may not use this server.`,
    };
  }
  const queryToken = url.searchParams.get("token");
  if (queryToken !== null && sameSecret(queryToken, rules.token)) return { ok: true, viaQuery: true };
  const candidates = [bearerToken(request), cookieToken(request, rules.port)];
  if (candidates.some((candidate) => candidate !== undefined && sameSecret(candidate, rules.token))) {
    return { ok: true, viaQuery: false };
  }
  return {
    ok: false,
    status: 401,
    code: "E_UNAUTHORIZED",
    message:
      "A valid access token is required: open the URL `lathe serve` printed, or send `Authorization: Bearer <token>`.",
  };
}

function allowedHosts(rules: AccessRules): string[] {
  const configured = rules.host.includes(":") ? `[${rules.host}]` : rules.host;
  return [...new Set(["127.0.0.1", "localhost", "[::1]", configured.toLowerCase()])].map(
    (name) => `${name}:${rules.port}`,
  );
}

/** Hashing first makes the comparison constant-time whatever the lengths. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

function bearerToken(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** One cookie per port: cookies ignore ports, and two servers on one machine must not share a token. */
export function tokenCookieName(port: number): string {
  return `lathe_token_${port}`;
}

function cookieToken(request: IncomingMessage, port: number): string | undefined {
  const name = tokenCookieName(port);
  for (const pair of (request.headers.cookie ?? "").split(";")) {
    const [key, ...value] = pair.trim().split("=");
    if (key !== name) continue;
    try {
      return decodeURIComponent(value.join("="));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Lets the page's later requests and its WebSocket authenticate without the token in any URL. */
export function tokenCookie(token: string, port: number): string {
  return `${tokenCookieName(port)}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/`;
}
