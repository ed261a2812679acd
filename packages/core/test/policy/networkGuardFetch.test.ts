import { once } from "node:events";
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import { type AddressInfo, createServer as createTcpServer } from "node:net";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { guardedFetch, type Resolver } from "../../src/policy/networkGuard/index.js";

interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface TestServer {
  port: number;
  origin: string;
  requests: SeenRequest[];
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A real HTTP server on 127.0.0.1 that records every request it gets. */
async function startServer(
  handler: (request: IncomingMessage, response: ServerResponse, server: TestServer) => void,
): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const state: TestServer = { port: 0, origin: "", requests };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      requests.push({
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      handler(request, response, state);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  state.port = (server.address() as AddressInfo).port;
  state.origin = `http://127.0.0.1:${state.port}`;
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return state;
}

function redirectTo(response: ServerResponse, location: string, status = 302): void {
  response.writeHead(status, { location });
  response.end();
}

/** A resolver from a fixed table, counting calls; names not in the table fail like NXDOMAIN. */
function tableResolver(table: Record<string, string[] | string[][]>): { resolve: Resolver; calls: string[] } {
  const calls: string[] = [];
  const answersSoFar = new Map<string, number>();
  const resolve: Resolver = async (hostname) => {
    calls.push(hostname);
    const entry = table[hostname];
    if (entry === undefined) throw new Error(`ENOTFOUND ${hostname}`);
    // A list of lists is a sequence of different answers, as a rebinding DNS server gives them.
    const nth = answersSoFar.get(hostname) ?? 0;
    answersSoFar.set(hostname, nth + 1);
    const answer = Array.isArray(entry[0]) ? (entry as string[][])[Math.min(nth, entry.length - 1)] : entry;
    return (answer as string[]).map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return { resolve, calls };
}

describe("guardedFetch against local servers", () => {
  it("refuses loopback by default and never connects", async () => {
    const server = await startServer((_request, response) => response.end("secret"));
    const result = await guardedFetch(`${server.origin}/`);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe("E_NETWORK_BLOCKED");
      expect(result.error.message).toContain("127.0.0.1 is a loopback address");
    }
    expect(server.requests).toHaveLength(0);
  });

  it("fetches loopback when allowed", async () => {
    const server = await startServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/plain", "x-test": "yes" });
      response.end("hello");
    });
    const result = await guardedFetch(`${server.origin}/page?x=1`, {}, { allowLoopback: true });
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.response.status).toBe(200);
      expect(result.response.body.toString()).toBe("hello");
      expect(result.response.headers["x-test"]).toBe("yes");
      expect(result.response.url).toBe(`${server.origin}/page?x=1`);
      expect(result.response.remoteAddress).toBe("127.0.0.1");
    }
    expect(server.requests.map((request) => request.url)).toEqual(["/page?x=1"]);
  });

  it("connects to the resolved address but keeps the host name in the Host header", async () => {
    const server = await startServer((_request, response) => response.end("named"));
    const { resolve, calls } = tableResolver({ "app.test": ["127.0.0.1"] });
    const result = await guardedFetch(
      `http://APP.test.:${server.port}/`,
      { headers: { Host: "evil.example" } },
      { allowLoopback: true, resolve },
    );
    expect(result.ok).toBe(true);
    expect(calls).toEqual(["app.test"]);
    expect(server.requests[0]?.headers.host).toBe(`app.test:${server.port}`);
  });

  it("sends the host name as TLS SNI while connecting to the pinned address", async () => {
    let clientHello: Buffer = Buffer.alloc(0);
    const tlsPeer = createTcpServer((socket) => {
      socket.once("data", (chunk: Buffer) => {
        clientHello = chunk;
        socket.destroy();
      });
    });
    tlsPeer.listen(0, "127.0.0.1");
    await once(tlsPeer, "listening");
    closers.push(() => new Promise((resolve) => tlsPeer.close(() => resolve())));
    const port = (tlsPeer.address() as AddressInfo).port;
    const { resolve } = tableResolver({ "secure.test": ["127.0.0.1"] });

    const result = await guardedFetch(`https://secure.test:${port}/`, {}, { allowLoopback: true, resolve });
    expect(result.ok ? undefined : result.error.code).toBe("E_TOOL_EXECUTION");
    // The ClientHello is sent in clear; the server_name extension carries the name.
    expect(clientHello.includes(Buffer.from("secure.test"))).toBe(true);
  });
});

describe("guardedFetch redirects", () => {
  it("follows a relative Location", async () => {
    const server = await startServer((request, response) => {
      if (request.url === "/start") redirectTo(response, "final?from=start");
      else response.end(`at ${request.url}`);
    });
    const result = await guardedFetch(`${server.origin}/start`, {}, { allowLoopback: true });
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.response.url).toBe(`${server.origin}/final?from=start`);
      expect(result.response.body.toString()).toBe("at /final?from=start");
    }
  });

  it("refuses a redirect to the metadata address even with loopback and private allowed", async () => {
    const server = await startServer((_request, response) =>
      redirectTo(response, "http://169.254.169.254/latest/meta-data/iam/security-credentials/"),
    );
    const result = await guardedFetch(`${server.origin}/`, {}, { allowLoopback: true, allowPrivate: true });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe("E_NETWORK_BLOCKED");
      expect(result.error.message).toContain(`Redirect from ${server.origin}/ not followed`);
      expect(result.error.message).toContain("http://169.254.169.254/latest");
      expect(result.error.message).toContain("cloud metadata endpoint");
    }
  });

  it("re-checks the redirect target's name: one bad address refuses the hop and the second server is never reached", async () => {
    const second = await startServer((_request, response) => response.end("should not be reached"));
    const first = await startServer((_request, response) =>
      redirectTo(response, `http://rebind.test:${second.port}/`, 307),
    );
    // 127.0.0.1 alone would be allowed here; the metadata answer next to it must sink the hop.
    const { resolve, calls } = tableResolver({ "rebind.test": ["127.0.0.1", "169.254.169.254"] });
    const result = await guardedFetch(`${first.origin}/`, {}, { allowLoopback: true, resolve });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe("E_NETWORK_BLOCKED");
      expect(result.error.message).toContain("rebind.test resolves to 169.254.169.254");
    }
    expect(calls).toEqual(["rebind.test"]);
    expect(first.requests).toHaveLength(1);
    expect(second.requests).toHaveLength(0);
  });

  it("refuses a redirect to another scheme", async () => {
    const server = await startServer((_request, response) => redirectTo(response, "file:///etc/passwd"));
    const result = await guardedFetch(`${server.origin}/`, {}, { allowLoopback: true });
    expect(result.ok ? undefined : result.error.code).toBe("E_NETWORK_BLOCKED");
  });

  it("normalises redirect targets like first URLs: IPv4-mapped and hex metadata are refused", async () => {
    const server = await startServer((request, response) =>
      redirectTo(
        response,
        request.url === "/mapped" ? "http://[::ffff:a9fe:a9fe]/" : "http://0xa9.0xfe.0xa9.0xfe/",
      ),
    );
    for (const path of ["/mapped", "/hex"]) {
      const result = await guardedFetch(
        `${server.origin}${path}`,
        {},
        { allowLoopback: true, allowPrivate: true },
      );
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.error.code).toBe("E_NETWORK_BLOCKED");
        expect(result.error.message).toContain("169.254.169.254");
      }
    }
  });

  it("follows 5 redirects and refuses the 6th", async () => {
    const server = await startServer((request, response) => {
      const match = /^\/hop\/(\d+)\/(\d+)$/.exec(request.url ?? "");
      const hop = Number(match?.[1]);
      const total = Number(match?.[2]);
      if (hop < total) redirectTo(response, `/hop/${hop + 1}/${total}`);
      else response.end(`done after ${hop}`);
    });
    const five = await guardedFetch(`${server.origin}/hop/0/5`, {}, { allowLoopback: true });
    expect(five.ok ? five.response.body.toString() : five.error.message).toBe("done after 5");
    expect(server.requests).toHaveLength(6);

    server.requests.length = 0;
    const six = await guardedFetch(`${server.origin}/hop/0/6`, {}, { allowLoopback: true });
    expect(six.ok).toBe(false);
    if (!six.ok) {
      expect(six.error.code).toBe("E_NETWORK_BLOCKED");
      expect(six.error.message).toContain("Stopped after 5 redirects");
    }
    // The 6th redirect's target was never requested.
    expect(server.requests.map((request) => request.url)).not.toContain("/hop/6/6");
    expect(server.requests).toHaveLength(6);
  });

  it("turns a POST into a GET on 303 and drops credentials across origins", async () => {
    const second = await startServer((_request, response) => response.end("landed"));
    const first = await startServer((_request, response) =>
      redirectTo(response, `${second.origin}/landing`, 303),
    );
    const result = await guardedFetch(
      `${first.origin}/submit`,
      {
        method: "POST",
        headers: { Authorization: "Bearer token", "Content-Type": "text/plain", "X-Keep": "1" },
        body: "payload",
      },
      { allowLoopback: true },
    );
    expect(result.ok).toBe(true);
    expect(first.requests[0]).toMatchObject({ method: "POST", body: "payload" });
    expect(first.requests[0]?.headers.authorization).toBe("Bearer token");
    const landed = second.requests[0];
    expect(landed).toMatchObject({ method: "GET", body: "" });
    expect(landed?.headers.authorization).toBeUndefined();
    expect(landed?.headers["content-type"]).toBeUndefined();
    expect(landed?.headers["x-keep"]).toBe("1");
  });

  it("repeats method and body on 307 within the origin", async () => {
    const server = await startServer((request, response) => {
      if (request.url === "/old") redirectTo(response, "/new", 307);
      else response.end("ok");
    });
    const result = await guardedFetch(
      `${server.origin}/old`,
      { method: "PUT", body: "data", headers: { authorization: "Bearer t" } },
      { allowLoopback: true },
    );
    expect(result.ok).toBe(true);
    expect(server.requests[1]).toMatchObject({ method: "PUT", url: "/new", body: "data" });
    expect(server.requests[1]?.headers.authorization).toBe("Bearer t");
  });
});

describe("guardedFetch limits", () => {
  it("refuses a body over maxBytes, declared or streamed", async () => {
    const server = await startServer((request, response) => {
      if (request.url === "/declared") {
        response.writeHead(200, { "content-length": "2000" });
        response.end("x".repeat(2000));
      } else {
        // No Content-Length: chunked, so only counting while reading can catch it.
        response.write("y".repeat(800));
        response.end("y".repeat(800));
      }
    });
    for (const path of ["/declared", "/streamed"]) {
      const result = await guardedFetch(
        `${server.origin}${path}`,
        {},
        { allowLoopback: true, maxBytes: 1000 },
      );
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.error.code).toBe("E_TOOL_EXECUTION");
        expect(result.error.message).toContain("1000-byte limit (maxBytes)");
      }
    }
    const small = await guardedFetch(
      `${server.origin}/declared`,
      {},
      { allowLoopback: true, maxBytes: 2000 },
    );
    expect(small.ok ? small.response.body.length : small.error.message).toBe(2000);
  });

  it("caps the decoded size of a compressed body", async () => {
    const bomb = gzipSync(Buffer.alloc(4 * 1024 * 1024));
    const server = await startServer((request, response) => {
      const body = request.url === "/bomb" ? bomb : gzipSync("compressed text");
      response.writeHead(200, { "content-encoding": "gzip", "content-length": String(body.length) });
      response.end(body);
    });
    const capped = await guardedFetch(
      `${server.origin}/bomb`,
      {},
      { allowLoopback: true, maxBytes: 1024 * 1024 },
    );
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(capped.ok ? undefined : capped.error.code).toBe("E_TOOL_EXECUTION");

    const text = await guardedFetch(`${server.origin}/text`, {}, { allowLoopback: true });
    expect(text.ok).toBe(true);
    if (text.ok) {
      expect(text.response.body.toString()).toBe("compressed text");
      expect(text.response.headers["content-encoding"]).toBeUndefined();
    }
    expect(server.requests[0]?.headers["accept-encoding"]).toBe("gzip, deflate, br");
  });

  it("times out a server that never answers, and one that stalls mid-body", async () => {
    const server = await startServer((request, response) => {
      if (request.url === "/stall") response.write("partial");
      // Otherwise: never answer.
    });
    for (const path of ["/silent", "/stall"]) {
      const started = Date.now();
      const result = await guardedFetch(
        `${server.origin}${path}`,
        {},
        { allowLoopback: true, timeoutMs: 300 },
      );
      expect(result.ok ? undefined : result.error.code).toBe("E_TOOL_TIMEOUT");
      expect(Date.now() - started).toBeLessThan(5000);
    }
  });

  it("reports a cancelled request as E_CANCELLED", async () => {
    const server = await startServer(() => {});
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const result = await guardedFetch(
      `${server.origin}/`,
      { signal: controller.signal },
      { allowLoopback: true },
    );
    expect(result.ok ? undefined : result.error.code).toBe("E_CANCELLED");
  });
});

describe("guardedFetch and DNS rebinding", () => {
  it("connects to the address it checked, not to a second answer", async () => {
    const server = await startServer((_request, response) => response.end("reached"));
    // First answer: 127.0.0.2 (allowed, nothing listens there); every later answer: the live server.
    const { resolve, calls } = tableResolver({ "flip.test": [["127.0.0.2"], ["127.0.0.1"]] });
    const result = await guardedFetch(
      `http://flip.test:${server.port}/`,
      {},
      { allowLoopback: true, resolve },
    );
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe("E_TOOL_EXECUTION");
      expect(result.error.message).toContain("ECONNREFUSED");
    }
    expect(calls).toEqual(["flip.test"]);
    expect(server.requests).toHaveLength(0);
  });

  it("reaches the server when the checked answer is the server, whatever later answers say", async () => {
    const server = await startServer((_request, response) => response.end("reached"));
    const { resolve, calls } = tableResolver({ "flip.test": [["127.0.0.1"], ["127.0.0.2"]] });
    const result = await guardedFetch(
      `http://flip.test:${server.port}/`,
      {},
      { allowLoopback: true, resolve },
    );
    expect(result.ok ? result.response.remoteAddress : result.error.message).toBe("127.0.0.1");
    expect(calls).toEqual(["flip.test"]);
  });
});
