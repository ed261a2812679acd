import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { nodeHttpFetch, sendsOverNodeHttp } from "../../src/llm/transport/nodeHttpFetch.js";
import { PlainHeaders } from "../../src/llm/transport/plainHeaders.js";

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

let server: Server | undefined;
afterEach(async () => {
  const closing = server;
  server = undefined;
  if (closing) await new Promise((resolve) => closing.close(resolve));
});

/** A real HTTP server on loopback that records each request and answers with `answer`. */
async function serve(answer: (request: IncomingMessage, response: ServerResponse) => void) {
  const seen: Seen[] = [];
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      seen.push({
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      answer(request, response);
    });
  });
  server.keepAliveTimeout = 100;
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen };
}

describe("nodeHttpFetch", () => {
  it("sends the method, headers and body as given and reads the whole answer", async () => {
    const { url, seen } = await serve((_, response) => {
      response.writeHead(200, { "content-type": "application/json", "x-request-id": "req-1" });
      response.end('{"ok":true}');
    });
    const response = await nodeHttpFetch(`${url}/v1/chat/completions`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer k" },
      body: '{"model":"m","n":"é"}',
    });
    expect(seen).toEqual([
      expect.objectContaining({ method: "POST", url: "/v1/chat/completions", body: '{"model":"m","n":"é"}' }),
    ]);
    expect(seen[0]?.headers).toMatchObject({
      "content-type": "application/json",
      authorization: "Bearer k",
      "content-length": "22",
      accept: "*/*",
      "accept-encoding": "gzip, deflate, br",
    });
    expect([response.ok, response.status, response.headers.get("X-Request-Id")]).toEqual([
      true,
      200,
      "req-1",
    ]);
    expect(Object.fromEntries([...response.headers])).toMatchObject({ "content-type": "application/json" });
    expect(await response.json()).toEqual({ ok: true });
    expect(response.bodyUsed).toBe(true);
  });

  it("streams the answer as it arrives, before the server has finished", async () => {
    let finish: (() => void) | undefined;
    const { url } = await serve((_, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("data: one\n\n");
      finish = () => response.end("data: two\n\n");
    });
    const response = await nodeHttpFetch(url, { method: "POST", body: "{}" });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("data: one\n\n");
    finish?.();
    const rest: string[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read())
      rest.push(new TextDecoder().decode(next.value));
    expect(rest.join("")).toBe("data: two\n\n");
  });

  it("gives an error status with its body and headers, as fetch does", async () => {
    const { url } = await serve((_, response) => {
      response.writeHead(429, "Too Many Requests", {
        "retry-after": "3",
        "content-type": "application/json",
      });
      response.end('{"error":{"message":"slow down"}}');
    });
    const response = await nodeHttpFetch(url, { method: "POST", body: "{}" });
    expect([response.ok, response.status, response.statusText, response.headers.get("retry-after")]).toEqual([
      false,
      429,
      "Too Many Requests",
      "3",
    ]);
    expect(await response.text()).toBe('{"error":{"message":"slow down"}}');
  });

  it("decodes a gzip answer", async () => {
    const { url } = await serve((_, response) => {
      response.writeHead(200, { "content-encoding": "gzip", "content-type": "text/plain" });
      response.end(gzipSync("compressed answer"));
    });
    expect(await (await nodeHttpFetch(url)).text()).toBe("compressed answer");
  });

  it("fails a refused connection as fetch does, with the socket error as the cause", async () => {
    const { url } = await serve((_, response) => response.end());
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
    const failure = await nodeHttpFetch(url, { method: "POST", body: "{}" }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect([
      (failure as TypeError).message,
      ((failure as TypeError).cause as { code?: string }).code,
    ]).toEqual(["fetch failed", "ECONNREFUSED"]);
  });

  it("fails the body with `terminated` when the server breaks off mid-answer", async () => {
    const { url } = await serve((_, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("data: partial\n\n", () => setTimeout(() => response.socket?.destroy(), 20));
    });
    const response = await nodeHttpFetch(url, { method: "POST", body: "{}" });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: partial\n\n");
    const failure = await reader.read().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as TypeError).message).toBe("terminated");
  });

  it("rejects with the signal's reason when aborted before the answer, and closes the connection", async () => {
    let closed: Promise<void> | undefined;
    const { url } = await serve((request) => {
      closed = new Promise((resolve) => request.socket.on("close", () => resolve()));
    });
    const controller = new AbortController();
    const pending = nodeHttpFetch(url, { method: "POST", body: "{}", signal: controller.signal });
    while (closed === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
    const reason = new Error("stopped by the user");
    controller.abort(reason);
    expect(await pending.catch((error: unknown) => error)).toBe(reason);
    await closed;
  });

  it("fails the body with the signal's reason when aborted mid-answer", async () => {
    const { url } = await serve((_, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("data: one\n\n");
    });
    const controller = new AbortController();
    const response = await nodeHttpFetch(url, { method: "POST", body: "{}", signal: controller.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    controller.abort(new DOMException("This operation was aborted", "AbortError"));
    const failure = await reader.read().catch((error: unknown) => error);
    expect((failure as DOMException).name).toBe("AbortError");
  });

  it("leaves a redirect to Node's fetch, which follows it with the same request", async () => {
    const { url, seen } = await serve((request, response) => {
      if (request.url === "/old") {
        response.writeHead(307, { location: "/new" });
        response.end();
        return;
      }
      response.writeHead(200, { "content-type": "text/plain" });
      response.end(`moved: ${request.method}`);
    });
    const response = await nodeHttpFetch(`${url}/old`, { method: "POST", body: '{"a":1}' });
    expect(await response.text()).toBe("moved: POST");
    expect(seen.map((request) => [request.method, request.url, request.body])).toEqual([
      ["POST", "/old", '{"a":1}'],
      ["POST", "/old", '{"a":1}'],
      ["POST", "/new", '{"a":1}'],
    ]);
  });
});

describe("sendsOverNodeHttp", () => {
  const text = { method: "POST", body: "{}" };
  it.each([
    ["an http URL with a text body", "http://127.0.0.1:1/v1", text, {}, true],
    ["an https URL object", new URL("https://api.example.com/v1"), text, {}, true],
    ["bytes as the body", "https://api.example.com/v1", { body: new Uint8Array([1]) }, {}, true],
    ["a stream as the body", "https://api.example.com/v1", { body: new ReadableStream() }, {}, false],
    ["redirects refused", "https://api.example.com/v1", { redirect: "error" }, {}, false],
    ["another scheme", "file:///etc/hosts", undefined, {}, false],
    ["HTTPS_PROXY set", "https://api.example.com/v1", text, { HTTPS_PROXY: "http://proxy:3128" }, false],
    ["http_proxy set", "http://127.0.0.1:1/v1", text, { http_proxy: "http://proxy:3128" }, false],
    ["NODE_USE_ENV_PROXY set", "https://api.example.com/v1", text, { NODE_USE_ENV_PROXY: "1" }, false],
    ["an empty proxy variable", "https://api.example.com/v1", text, { HTTPS_PROXY: "" }, true],
  ] as const)("%s: %s", (_, input, init, env, expected) => {
    expect(sendsOverNodeHttp(input, init as RequestInit | undefined, env)).toBe(expected);
  });
});

describe("PlainHeaders", () => {
  it("matches names in any case, joins repeated names and iterates in name order", () => {
    const headers = new PlainHeaders([
      ["X-B", "1"],
      ["x-a", "2"],
      ["x-b", "3"],
    ]);
    headers.set("Content-Type", "text/plain");
    expect(headers.get("X-b")).toBe("1, 3");
    expect([...headers]).toEqual([
      ["content-type", "text/plain"],
      ["x-a", "2"],
      ["x-b", "1, 3"],
    ]);
    headers.delete("X-A");
    expect(headers.has("x-a")).toBe(false);
    expect(Object.fromEntries(new PlainHeaders({ Accept: "*/*", Skipped: undefined }))).toEqual({
      accept: "*/*",
    });
  });

  it("counts as a Headers for `instanceof`, as Node's own Headers does", () => {
    expect(new PlainHeaders() instanceof PlainHeaders).toBe(true);
    expect(new Headers({ a: "b" }) instanceof PlainHeaders).toBe(true);
    expect({ get: () => null } instanceof PlainHeaders).toBe(false);
  });
});
