import { once } from "node:events";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { htmlToText } from "../../../src/context/mentions/htmlToText.js";
import { resolveMentions } from "../../../src/context/mentions/resolveMentions.js";
import { type ContextTestBed, createContextTestBed } from "../dynamic/contextTestBed.js";
import { mention, sourcesFor } from "./mentionTestBed.js";

let bed: ContextTestBed;
const closers: (() => Promise<void>)[] = [];
beforeEach(() => {
  bed = createContextTestBed();
});
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  bed.cleanup();
});

/** A real HTTP server on 127.0.0.1; never a public address. */
async function serve(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<{
  origin: string;
  requests: string[];
}> {
  const requests: string[] = [];
  const server = http.createServer((request, response) => {
    requests.push(request.url ?? "");
    handler(request, response);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

const page = `<!doctype html><html><head><title>Guide &amp; notes</title><style>p{color:red}</style>
<script>alert("x")</script></head><body><h1>Install</h1><p>Run <code>npm&nbsp;install</code>.</p>
<ul><li>one</li><li>two &lt;b&gt;</li></ul><!-- hidden --><p>Caf&#233; &#x2713;</p></body></html>`;

describe("@url", () => {
  it("refuses loopback unless local URLs are allowed, and never connects then", async () => {
    const server = await serve((_request, response) => response.end("secret"));
    const url = `${server.origin}/`;
    const blocked = await resolveMentions([mention("url", url)], sourcesFor(bed.root));
    expect(blocked.attachments).toEqual([]);
    expect(blocked.errors.map(({ error }) => error.code)).toEqual(["E_NETWORK_BLOCKED"]);
    expect(server.requests).toEqual([]);
  });

  it("fetches a page and reduces its HTML to text", async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end(page);
    });
    const url = `${server.origin}/guide`;
    const result = await resolveMentions(
      [mention("url", url)],
      sourcesFor(bed.root, { allowLocalUrls: true }),
    );
    expect(result.errors).toEqual([]);
    expect(result.attachments.map(({ title, text }) => [title, text])).toEqual([
      [`Guide & notes (${url})`, "Install\n\nRun npm install.\n\n- one\n- two <b>\n\nCafé ✓"],
    ]);
    expect(server.requests).toEqual(["/guide"]);
  });

  it("passes plain text as it is and refuses binary content", async () => {
    const server = await serve((request, response) => {
      if (request.url === "/notes.txt") {
        response.writeHead(200, { "content-type": "text/plain" });
        response.end("plain <b>text</b>\n");
      } else {
        response.writeHead(200, { "content-type": "image/png" });
        response.end(Buffer.from([137, 80, 78, 71]));
      }
    });
    const result = await resolveMentions(
      [mention("url", `${server.origin}/notes.txt`), mention("url", `${server.origin}/logo.png`)],
      sourcesFor(bed.root, { allowLocalUrls: true }),
    );
    expect(result.attachments.map(({ text }) => text)).toEqual(["plain <b>text</b>\n"]);
    expect(result.errors.map(({ error }) => [error.code, error.message])).toEqual([
      [
        "E_BINARY_FILE",
        `${server.origin}/logo.png is image/png, not a text page; only text can be attached.`,
      ],
    ]);
  });

  it("reports HTTP errors, bodies over 100 KB and servers that do not answer in time", async () => {
    const server = await serve((request, response) => {
      if (request.url === "/missing") {
        response.writeHead(404, { "content-type": "text/html" });
        response.end("<p>nope</p>");
      } else if (request.url === "/huge") {
        response.writeHead(200, { "content-type": "text/plain" });
        response.end("x".repeat(100 * 1024 + 1));
      }
      // Anything else never answers.
    });
    const result = await resolveMentions(
      ["/missing", "/huge", "/slow"].map((route) => mention("url", `${server.origin}${route}`)),
      sourcesFor(bed.root, { allowLocalUrls: true, limits: { urlTimeoutMs: 300 } }),
    );
    expect(result.attachments).toEqual([]);
    expect(result.errors.map(({ error }) => error.code)).toEqual([
      "E_TOOL_EXECUTION",
      "E_TOOL_EXECUTION",
      "E_TOOL_TIMEOUT",
    ]);
    expect(result.errors[0]!.error.message).toBe(`${server.origin}/missing answered HTTP 404.`);
    expect(result.errors[1]!.error.message).toContain("larger than the 102400-byte limit");
  });

  it("refuses schemes other than http and https", async () => {
    const result = await resolveMentions([mention("url", "file:///etc/passwd")], sourcesFor(bed.root));
    expect(result.errors.map(({ error }) => error.code)).toEqual(["E_NETWORK_BLOCKED"]);
  });
});

describe("htmlToText", () => {
  it("keeps text, drops markup and what is never shown", () => {
    expect(htmlToText(page)).toEqual({
      title: "Guide & notes",
      text: "Install\n\nRun npm install.\n\n- one\n- two <b>\n\nCafé ✓",
    });
    expect(htmlToText("<p>no title</p>")).toEqual({ title: undefined, text: "no title" });
  });
});
