import http from "node:http";
import https from "node:https";
import type { Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { fetchWithoutRedirectCopy } from "./fetchWithoutRedirectCopy.js";
import { PlainHeaders } from "./plainHeaders.js";
import { PlainResponse } from "./plainResponse.js";

/**
 * `fetch` for model requests, sent with node:http(s). Node's fetch (undici) takes tens of
 * milliseconds to load on the first request of every start, and each request costs it about a
 * millisecond more than node:http. What a model request needs — a method, headers, a text body,
 * an abort signal, a streamed answer, compressed or not — is sent here; anything else (a proxy in
 * the environment, a body that is not text, a redirect, a Request object) goes to Node's fetch.
 * Failures read as fetch's do: `TypeError: fetch failed` with the socket error as its cause
 * before the answer, `TypeError: terminated` when the answer breaks off, the signal's reason
 * when aborted.
 */
export async function nodeHttpFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  if (!sendsOverNodeHttp(input, init, process.env)) return fetchWithoutRedirectCopy(input, init);
  const response = await send(new URL(String(input)), init);
  if (redirectStatuses.has(response.status) && response.headers.has("location")) {
    await response.body?.cancel();
    return globalThis.fetch(input, init);
  }
  return response as unknown as Response;
}

const proxyVariables = ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NODE_USE_ENV_PROXY"];
const redirectStatuses = new Set([301, 302, 303, 307, 308]);
const nullBodyStatuses = new Set([101, 204, 205, 304]);

/** Whether `nodeHttpFetch` sends this request itself rather than through Node's fetch. */
export function sendsOverNodeHttp(
  input: string | URL | Request,
  init: RequestInit | undefined,
  env: NodeJS.ProcessEnv,
): boolean {
  if (typeof input !== "string" && !(input instanceof URL)) return false;
  if (!/^https?:/i.test(String(input))) return false;
  const body = init?.body;
  if (body !== undefined && body !== null && typeof body !== "string" && !(body instanceof Uint8Array))
    return false;
  if (init?.redirect !== undefined && init.redirect !== "follow") return false;
  // Node's fetch honours these (NODE_USE_ENV_PROXY); a model request must go the same way.
  return !proxyVariables.some((name) => env[name] || env[name.toLowerCase()]);
}

const agents: { http?: http.Agent; https?: https.Agent } = {};

/**
 * Connections kept open between requests, as fetch keeps them. Each made at its first use, not at
 * load: node:https brings node:tls, which a run against a local model (http) never needs.
 */
function agentFor(secure: boolean): http.Agent {
  if (secure) {
    agents.https ??= new https.Agent({ keepAlive: true });
    return agents.https;
  }
  agents.http ??= new http.Agent({ keepAlive: true });
  return agents.http;
}

function send(url: URL, init: RequestInit | undefined): Promise<PlainResponse> {
  const signal = init?.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(signal.reason);
  const body =
    typeof init?.body === "string" ? Buffer.from(init.body) : (init?.body as Uint8Array | undefined);
  const secure = url.protocol === "https:";
  return new Promise((resolve, reject) => {
    let settled = false;
    let bodyDone: ((error?: unknown) => void) | undefined;
    const request = (secure ? https : http).request(url, {
      method: init?.method ?? "GET",
      headers: requestHeaders(init?.headers, body),
      agent: agentFor(secure),
    });
    const stopWatching = () => signal?.removeEventListener("abort", onAbort);
    function onAbort(): void {
      request.destroy();
      if (!settled) {
        settled = true;
        reject(signal?.reason);
      } else {
        bodyDone?.(signal?.reason);
      }
    }
    signal?.addEventListener("abort", onAbort, { once: true });
    request.on("error", (error) => {
      if (settled) return;
      settled = true;
      stopWatching();
      reject(new TypeError("fetch failed", { cause: error }));
    });
    request.on("response", (message) => {
      settled = true;
      const status = message.statusCode ?? 0;
      const headers = headerPairs(message.rawHeaders);
      let stream: ReadableStream<Uint8Array> | null = null;
      if (nullBodyStatuses.has(status) || init?.method === "HEAD") {
        message.resume();
        stopWatching();
      } else {
        const answer = webStream(decoded(message), request, stopWatching);
        stream = answer.stream;
        bodyDone = answer.fail;
      }
      resolve(
        new PlainResponse(stream, {
          status,
          statusText: message.statusMessage ?? "",
          headers,
          url: url.href,
        }),
      );
    });
    request.end(body);
  });
}

function requestHeaders(init: RequestInit["headers"], body: Uint8Array | undefined): Record<string, string> {
  const headers: Record<string, string> = Object.fromEntries(
    new PlainHeaders(init as Iterable<readonly [string, string]> | Record<string, string> | undefined),
  );
  headers.accept ??= "*/*";
  headers["accept-encoding"] ??= "gzip, deflate, br";
  headers["user-agent"] ??= "node";
  if (body !== undefined) headers["content-length"] = String(body.byteLength);
  return headers;
}

function headerPairs(raw: string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i] as string, raw[i + 1] as string]);
  return pairs;
}

/** The answer's bytes as sent before compression, as fetch gives them. */
function decoded(message: http.IncomingMessage): Readable {
  const encoding = (message.headers["content-encoding"] ?? "").trim().toLowerCase();
  const decoder =
    encoding === "gzip" || encoding === "x-gzip"
      ? createGunzip()
      : encoding === "deflate"
        ? createInflate()
        : encoding === "br"
          ? createBrotliDecompress()
          : undefined;
  if (decoder === undefined) return message;
  message.on("error", (error) => decoder.destroy(error));
  message.on("close", () => {
    if (!message.complete) decoder.destroy(new Error("aborted"));
  });
  return message.pipe(decoder);
}

/**
 * The answer as a web stream that reads from the socket only as fast as it is read (the socket
 * pauses while the stream's queue is full), ends with the answer, and fails as fetch's body does
 * when the connection breaks off.
 */
function webStream(
  source: Readable,
  request: http.ClientRequest,
  finished: () => void,
): { stream: ReadableStream<Uint8Array>; fail: (reason: unknown) => void } {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let open = true;
  const end = (error?: unknown) => {
    if (!open) return;
    open = false;
    finished();
    if (error === undefined) controller?.close();
    else controller?.error(error);
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      start(streamController) {
        controller = streamController;
        source.on("data", (chunk: Buffer) => {
          if (!open) return;
          streamController.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((streamController.desiredSize ?? 0) <= 0) source.pause();
        });
        source.on("end", () => end());
        source.on("error", (error) => end(new TypeError("terminated", { cause: error })));
        source.on("close", () => end(new TypeError("terminated", { cause: new Error("other side closed") })));
      },
      pull() {
        source.resume();
      },
      cancel() {
        open = false;
        finished();
        request.destroy();
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
  return { stream, fail: (reason) => end(reason) };
}
