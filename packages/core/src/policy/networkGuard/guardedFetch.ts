import { errorInfo, LatheError, type LatheErrorInfo } from "@lathe/protocol";
import { untilAborted } from "../../cancellation/untilAborted.js";
import { checkUrl, type NetworkGuardOptions } from "./checkUrl.js";
import { type ExchangeRequest, sendRequest } from "./httpExchange.js";
import { isRedirect, redirectedRequest } from "./redirects.js";
import { readCappedBody } from "./responseBody.js";

export interface GuardedRequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Cancels the request (E_CANCELLED), e.g. when the user stops the run. */
  signal?: AbortSignal;
}

export interface GuardedFetchOptions extends NetworkGuardOptions {
  /** Largest decoded body accepted, in bytes. */
  maxBytes?: number;
  /** Time for the whole exchange, every redirect and the body included, in milliseconds. */
  timeoutMs?: number;
  /** Redirects followed before giving up; each target is checked like the first URL. */
  maxRedirects?: number;
}

/**
 * The limits of one guarded exchange when the caller sets none: SPEC §4 and §5's 5 MB download and
 * at most 5 redirects. They are web_fetch's defaults too, which its settings override.
 */
export const guardedFetchDefaults = {
  maxBytes: 5 * 1024 * 1024,
  timeoutMs: 20_000,
  maxRedirects: 5,
} as const;

export interface GuardedResponse {
  status: number;
  headers: Record<string, string>;
  /** The URL that answered, after redirects. */
  url: string;
  body: Buffer;
  /** The checked address the final connection went to. */
  remoteAddress: string;
}

export type GuardedFetchResult =
  | { ok: true; response: GuardedResponse }
  | { ok: false; error: LatheErrorInfo };

/**
 * Fetches a URL through the network guard (SPEC §5): every URL, the first and each redirect
 * target, passes `checkUrl`, and the connection goes to the addresses that check approved, so a
 * name that answers differently the second time (DNS rebinding) gains nothing. Never throws.
 */
export async function guardedFetch(
  input: string | URL,
  init: GuardedRequestInit = {},
  options: GuardedFetchOptions = {},
): Promise<GuardedFetchResult> {
  const maxBytes = options.maxBytes ?? guardedFetchDefaults.maxBytes;
  const timeoutMs = options.timeoutMs ?? guardedFetchDefaults.timeoutMs;
  const maxRedirects = options.maxRedirects ?? guardedFetchDefaults.maxRedirects;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  const signal = init.signal ? AbortSignal.any([init.signal, deadline.signal]) : deadline.signal;

  let current = String(input);
  try {
    let request = initialRequest(init);
    let previous: string | undefined;
    for (let redirects = 0; ; redirects++) {
      const check = await untilAborted(checkUrl(current, options), signal);
      if (!check.ok) {
        return { ok: false, error: previous === undefined ? check.error : onRedirect(check.error, previous) };
      }
      current = check.url.href;

      const { message: response, remoteAddress } = await sendRequest(check, request, signal);
      const status = response.statusCode ?? 0;
      const location = isRedirect(status) ? response.headers.location : undefined;
      if (location === undefined) {
        const { body, headers } = await readCappedBody(response, maxBytes, signal, current);
        return { ok: true, response: { status, headers, url: current, body, remoteAddress } };
      }

      // The redirect's own body is never wanted; closing the socket is cheaper than reading it.
      response.destroy();
      const next = parseLocation(location, check.url);
      if (next === undefined) {
        const text = `${current} redirected to an invalid location: ${location}`;
        return { ok: false, error: errorInfo("E_TOOL_EXECUTION", text) };
      }
      if (redirects >= maxRedirects) {
        const text = `Stopped after ${maxRedirects} redirects (maxRedirects); ${current} redirects again to ${next.href}.`;
        return { ok: false, error: errorInfo("E_NETWORK_BLOCKED", text) };
      }
      request = redirectedRequest(request, status, check.url, next);
      previous = current;
      current = next.href;
    }
  } catch (error) {
    if (deadline.signal.aborted) {
      const text = `No complete response from ${current} within ${timeoutMs} ms (timeoutMs).`;
      return { ok: false, error: errorInfo("E_TOOL_TIMEOUT", text) };
    }
    if (init.signal?.aborted)
      return { ok: false, error: errorInfo("E_CANCELLED", `Request to ${current} cancelled.`) };
    if (error instanceof LatheError) return { ok: false, error: error.toInfo() };
    return {
      ok: false,
      error: errorInfo("E_TOOL_EXECUTION", `Request to ${current} failed: ${describe(error)}`),
    };
  } finally {
    clearTimeout(timer);
  }
}

function initialRequest(init: GuardedRequestInit): ExchangeRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(init.headers ?? {})) headers[name.toLowerCase()] = value;
  // The reader decodes these and caps the decoded size, so compression saves bytes without risk.
  headers["accept-encoding"] ??= "gzip, deflate, br";
  const method = (init.method ?? "GET").toUpperCase();
  return init.body === undefined ? { method, headers } : { method, headers, body: init.body };
}

/** `Location` may be relative; it is resolved against the URL that sent it. */
function parseLocation(location: string, base: URL): URL | undefined {
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}

/** Says which hop failed, since the caller only knows the first URL. */
function onRedirect(error: LatheErrorInfo, from: string): LatheErrorInfo {
  return { ...error, message: `Redirect from ${from} not followed: ${error.message}` };
}

/** Names the system error (`ECONNREFUSED 127.0.0.2:8080`) rather than only Node's wording. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = "code" in error && typeof error.code === "string" ? error.code : undefined;
  return code !== undefined && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
}
