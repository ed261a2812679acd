import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { errorCode, startTestServer, type TestServer } from "./serverHarness.js";

let t: TestServer;
let sessionId: string;
beforeAll(async () => {
  t = await startTestServer();
  sessionId = await t.openSession();
});
afterAll(async () => {
  await t.close();
});

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** node:http rather than fetch: fetch will not send a forged Host header. */
function raw(
  path: string,
  headers: Record<string, string>,
  method = "GET",
  body?: string,
): Promise<RawAnswer> {
  const { port } = new URL(t.server.origin);
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: "127.0.0.1", port, path, method, headers }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        text += chunk;
      });
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, text }),
      );
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

const bearer = () => ({ authorization: `Bearer ${t.server.token}` });

/** The HTTP status a WebSocket upgrade is answered with (101 when it opens). */
function upgradeStatus(path: string, headers: Record<string, string>): Promise<number> {
  const url = `${t.server.origin.replace("http:", "ws:")}${path}`;
  const ws = new WebSocket(url, { headers });
  return new Promise((resolve, reject) => {
    ws.once("open", () => {
      ws.close();
      resolve(101);
    });
    ws.once("unexpected-response", (_request, response) => {
      resolve(response.statusCode ?? 0);
      response.resume();
    });
    ws.once("error", reject);
  });
}

describe("access control", () => {
  it("binds 127.0.0.1 on a random port and prints a URL that carries a 64-hex-digit token", () => {
    expect(t.server.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(t.server.token).toMatch(/^[0-9a-f]{64}$/);
    expect(t.server.url).toBe(`${t.server.origin}/?token=${t.server.token}`);
  });

  it("answers 401 without a token or with a wrong one, on the API, the page and the event socket", async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: "Bearer nope" },
      { authorization: `Basic ${t.server.token}` },
    ];
    for (const headers of attempts) {
      const answer = await raw("/api/sessions", headers);
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.text)).toMatchObject({ error: { code: "E_UNAUTHORIZED" } });
    }
    const wrong = await t.api("GET", "/api/sessions", undefined, {
      authorization: `Bearer ${t.server.token}0`,
    });
    expect(errorCode(wrong)).toBe("E_UNAUTHORIZED");
    expect((await raw("/", {})).status).toBe(401);
    expect((await raw(`/api/sessions?token=${t.server.token.slice(1)}x`, {})).status).toBe(401);
    expect(await upgradeStatus(`/api/sessions/${sessionId}/events`, {})).toBe(401);
    expect(await upgradeStatus(`/api/sessions/${sessionId}/events?token=wrong`, {})).toBe(401);
  });

  it("accepts the token as a bearer header, in the query, and as the cookie the first page load sets", async () => {
    expect((await raw("/api/sessions", bearer())).status).toBe(200);
    expect((await raw(`/api/sessions?token=${t.server.token}`, {})).status).toBe(200);
    expect(await upgradeStatus(`/api/sessions/${sessionId}/events?token=${t.server.token}`, {})).toBe(101);

    const landing = await raw(`/?token=${t.server.token}`, {});
    expect(landing.status).toBe(303);
    expect(landing.headers.location).toBe("/");
    const [cookie] = landing.headers["set-cookie"] ?? [];
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const pair = cookie!.split(";")[0]!;
    const page = await raw("/", { cookie: `other=1; ${pair}` });
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(page.text).not.toContain(t.server.token);
    expect((await raw("/api/sessions", { cookie: pair })).status).toBe(200);
    expect(await upgradeStatus(`/api/sessions/${sessionId}/events`, { cookie: pair })).toBe(101);
  });

  it("answers 403 to a foreign Origin, on HTTP and on the WebSocket upgrade, token or not", async () => {
    const evil = { ...bearer(), origin: "http://evil.example" };
    const answer = await t.api("POST", `/api/sessions/${sessionId}/messages`, { text: "hi" }, evil);
    expect(answer.status).toBe(403);
    expect(errorCode(answer)).toBe("E_FORBIDDEN_ORIGIN");
    expect(await upgradeStatus(`/api/sessions/${sessionId}/events?token=${t.server.token}`, evil)).toBe(403);
    const { port } = new URL(t.server.origin);
    expect(
      (await raw("/api/sessions", { ...bearer(), origin: `http://127.0.0.1:${Number(port) + 1}` })).status,
    ).toBe(403);
    expect((await raw("/api/sessions", { ...bearer(), origin: "null" })).status).toBe(403);
    // Its own origin, under any of the loopback names, is welcome.
    for (const name of ["127.0.0.1", "localhost", "[::1]"]) {
      expect((await raw("/api/sessions", { ...bearer(), origin: `http://${name}:${port}` })).status).toBe(
        200,
      );
    }
    expect(
      await upgradeStatus(`/api/sessions/${sessionId}/events`, { ...bearer(), origin: t.server.origin }),
    ).toBe(101);
  });

  it("answers 403 to a Host that is not this server (DNS rebinding)", async () => {
    const { port } = new URL(t.server.origin);
    const rebound = await raw("/api/sessions", { ...bearer(), host: `evil.example:${port}` });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.text)).toMatchObject({ error: { code: "E_FORBIDDEN_HOST" } });
    expect((await raw("/api/sessions", { ...bearer(), host: "127.0.0.1:1" })).status).toBe(403);
    expect(
      await upgradeStatus(`/api/sessions/${sessionId}/events`, { ...bearer(), host: `evil.example:${port}` }),
    ).toBe(403);
    for (const name of ["127.0.0.1", "localhost", "[::1]", "LOCALHOST"]) {
      expect((await raw("/api/sessions", { ...bearer(), host: `${name}:${port}` })).status).toBe(200);
    }
  });

  it("answers 404 for an unknown session, on HTTP and on the event socket", async () => {
    for (const [method, path] of [
      ["GET", "/api/sessions/nope"],
      ["DELETE", "/api/sessions/nope"],
      ["POST", "/api/sessions/nope/messages"],
      ["POST", "/api/sessions/nope/approvals/x"],
    ] as const) {
      const answer = await t.api(method, path, method === "POST" ? { text: "hi" } : undefined);
      expect(answer.status).toBe(404);
      expect(errorCode(answer)).toBe("E_SESSION_NOT_FOUND");
    }
    expect(await upgradeStatus("/api/sessions/nope/events", bearer())).toBe(404);
    expect(errorCode(await t.api("GET", "/api/elsewhere"))).toBe("E_NOT_FOUND");
    expect(errorCode(await t.api("POST", `/api/sessions/${sessionId}/explode`, {}))).toBe("E_NOT_FOUND");
  });

  it("answers 400 to bodies that are not JSON or do not match, naming the problem", async () => {
    const cases: [string, unknown][] = [
      ["/api/sessions", "{not json"],
      ["/api/sessions", { projectRoot: "relative/dir" }],
      ["/api/sessions", { projectRoot: "/tmp", mode: "chaos" }],
      ["/api/sessions", { projectRoot: "/tmp", surprise: true }],
      [`/api/sessions/${sessionId}/messages`, { text: "   " }],
      [`/api/sessions/${sessionId}/messages`, { message: "hi" }],
      [`/api/sessions/${sessionId}/approvals/x`, { decision: "maybe" }],
      [`/api/sessions/${sessionId}/editor`, { full: {}, delta: {} }],
      [`/api/sessions/${sessionId}/approval-mode`, { approvalMode: "anything" }],
    ];
    for (const [path, body] of cases) {
      const answer = await t.api("POST", path, body);
      expect(answer.status, path).toBe(400);
      expect(errorCode(answer)).toBe("E_INVALID_ARGS");
    }
    const relative = await t.api("POST", "/api/sessions", { projectRoot: "relative/dir" });
    expect(relative.body).toMatchObject({ error: { message: expect.stringContaining("absolute") } });
    expect(errorCode(await t.api("PUT", "/api/sessions", {}))).toBe("E_METHOD_NOT_ALLOWED");
    expect((await t.api("GET", `/api/sessions/${sessionId}/events`)).status).toBe(426);
  });

  it("caps request bodies at 1 MiB", async () => {
    const huge = JSON.stringify({ text: "x".repeat(1024 * 1024) });
    const answer = await raw(
      `/api/sessions/${sessionId}/messages`,
      { ...bearer(), "content-type": "application/json" },
      "POST",
      huge,
    );
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.text)).toMatchObject({ error: { code: "E_BODY_TOO_LARGE" } });
    expect(t.factory.made[0]!.events).toEqual([]);
  });
});
