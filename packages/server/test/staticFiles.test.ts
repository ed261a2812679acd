import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./serverHarness.js";

let t: TestServer;
let outside: string;
beforeAll(async () => {
  const base = mkdtempSync(join(tmpdir(), "lathe-static-"));
  const site = join(base, "site");
  outside = join(base, "secret.txt");
  writeFileSync(outside, "top secret\n");
  mkdirSync(join(site, "assets"), { recursive: true });
  writeFileSync(join(site, "index.html"), "<!doctype html><title>Lathe UI</title>");
  writeFileSync(join(site, "assets", "app.js"), "console.log('app');");
  writeFileSync(join(site, "assets", "app.css"), "body{}");
  writeFileSync(join(site, "assets", "blob.bin"), "??");
  symlinkSync(outside, join(site, "assets", "leak.txt"));
  t = await startTestServer({ staticDir: site });
});
afterAll(async () => {
  await t.close();
});

/** Sends the path exactly as written: fetch and URL would normalise `..` away. */
function get(
  path: string,
  method = "GET",
): Promise<{ status: number; type: string | undefined; csp: string | undefined; text: string }> {
  const { port } = new URL(t.server.origin);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: "127.0.0.1", port, path, method, headers: { authorization: `Bearer ${t.server.token}` } },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          text += chunk;
        });
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            type: response.headers["content-type"],
            csp: response.headers["content-security-policy"] as string | undefined,
            text,
          }),
        );
      },
    );
    outgoing.on("error", reject);
    outgoing.end();
  });
}

describe("static files", () => {
  it("serves the built UI with the right content types, index.html at / and for app routes", async () => {
    expect(await get("/")).toMatchObject({
      status: 200,
      type: "text/html; charset=utf-8",
      text: expect.stringContaining("Lathe UI"),
    });
    // Scripts only from the server itself, and connections only back to it.
    expect((await get("/")).csp).toContain("script-src 'self';");
    expect((await get("/")).csp).toContain("connect-src 'self';");
    expect(await get("/assets/app.js")).toMatchObject({
      status: 200,
      type: "text/javascript; charset=utf-8",
    });
    expect(await get("/assets/app.css")).toMatchObject({ status: 200, type: "text/css; charset=utf-8" });
    expect(await get("/assets/blob.bin")).toMatchObject({ status: 200, type: "application/octet-stream" });
    expect(await get("/sessions/abc")).toMatchObject({
      status: 200,
      text: expect.stringContaining("Lathe UI"),
    });
    expect(await get("/assets/missing.js")).toMatchObject({ status: 404 });
    expect(await get("/", "HEAD")).toMatchObject({ status: 200, text: "" });
    expect((await get("/", "POST")).status).toBe(405);
  });

  it("never reads outside the directory: dot-dot, encoded dot-dot, NUL and symlinks", async () => {
    for (const path of [
      "/../secret.txt",
      "/assets/../../secret.txt",
      "/%2e%2e/secret.txt",
      "/assets%2f..%2f..%2fsecret.txt",
      "/..%5csecret.txt",
      "/assets/leak.txt",
      "/index.html%00.js",
      "/%E0%A4%A",
    ]) {
      const answer = await get(path);
      expect(answer.status, path).toBe(404);
      expect(answer.text).not.toContain("top secret");
    }
  });
});
