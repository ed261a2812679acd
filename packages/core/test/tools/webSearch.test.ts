import { chmodSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseDuckDuckGoHtml } from "../../src/tools/builtin/webSearch/providers/duckDuckGoHtml.js";
import { createWebSearchTool } from "../../src/tools/builtin/webSearch/webSearch.js";
import type { WebSearchSettings } from "../../src/tools/web/webSearchSettings.js";
import { closeLocalServers, type LocalServer, sendJson, startLocalServer } from "./localHttpServers.js";
import { createToolTestBed, errorOf, outputOf, type ToolTestBed } from "./toolTestContext.js";

let bed: ToolTestBed;
beforeEach(() => {
  bed = createToolTestBed();
});
afterEach(async () => {
  await closeLocalServers();
  bed.cleanup();
});

/**
 * Every test names its providers' endpoints on 127.0.0.1, opens loopback for them, and gives an
 * empty environment so keys on the machine running the tests play no part.
 */
function search(args: Record<string, unknown>, settings: WebSearchSettings) {
  const tool = createWebSearchTool(() => ({ network: { allowLoopback: true }, env: {}, ...settings }));
  return tool.execute(tool.schema.parse(args), bed.context());
}

function searxngServer(results: { title: string; url: string; content?: string }[]): Promise<LocalServer> {
  return startLocalServer((_request, response) => sendJson(response, 200, { query: "q", results }));
}

function failingServer(status: number, body: unknown): Promise<LocalServer> {
  return startLocalServer((_request, response) => sendJson(response, status, body));
}

const threeHits = [
  { title: "Vitest guide", url: "https://vitest.dev/guide/", content: "Getting started with Vitest." },
  { title: "Vitest config", url: "https://vitest.dev/config/", content: "x".repeat(400) },
  { title: "Not a web link", url: "ftp://example.org/file", content: "dropped" },
];

describe("web_search: providers", () => {
  it("answers from a SearXNG instance's JSON API, naming the provider", async () => {
    const searxng = await searxngServer(threeHits);
    const result = await search({ query: "vitest config" }, { searxngUrl: `${searxng.origin}/` });
    const output = outputOf(result);
    expect(searxng.requests[0]?.url).toBe("/search?q=vitest+config&format=json");
    expect(output).toContain('Results for "vitest config" from SearXNG:');
    expect(output).toContain("1. Vitest guide — https://vitest.dev/guide/\n   Getting started with Vitest.");
    expect(output).toContain("2. Vitest config — https://vitest.dev/config/");
    // Snippets are clipped to 300 characters; links that are not http(s) are dropped.
    expect(output).toContain(`${"x".repeat(299)}…`);
    expect(output).not.toContain("x".repeat(300));
    expect(output).not.toContain("ftp://");
    expect(result.ok && result.metadata).toMatchObject({ provider: "searxng", results: 2 });
  });

  it("keeps to max_results", async () => {
    const hits = Array.from({ length: 8 }, (_, index) => ({
      title: `Hit ${index}`,
      url: `https://h.test/${index}`,
    }));
    const searxng = await searxngServer(hits);
    const output = outputOf(await search({ query: "hits", max_results: 3 }, { searxngUrl: searxng.origin }));
    expect(output).toContain("3. Hit 2");
    expect(output).not.toContain("4. Hit 3");
  });

  it("sends Brave its key in X-Subscription-Token and strips the highlighting from its snippets", async () => {
    const brave = await startLocalServer((_request, response) =>
      sendJson(response, 200, {
        web: {
          results: [
            {
              title: "Node &amp; npm",
              url: "https://nodejs.org/",
              description: "The <strong>Node</strong> runtime",
            },
          ],
        },
      }),
    );
    const output = outputOf(
      await search(
        { query: "node", max_results: 2 },
        {
          providers: ["brave"],
          brave: { apiKey: "brave-key", endpoint: `${brave.origin}/res/v1/web/search` },
        },
      ),
    );
    expect(brave.requests[0]?.headers["x-subscription-token"]).toBe("brave-key");
    expect(brave.requests[0]?.url).toBe("/res/v1/web/search?q=node&count=2");
    expect(output).toContain("1. Node & npm — https://nodejs.org/\n   The Node runtime");
  });

  it("posts to Tavily with the key found in credentials.json", async () => {
    writeFileSync(
      path.join(bed.latheHome, "credentials.json"),
      JSON.stringify({ tavily: { apiKey: "tvly-stored" } }),
    );
    chmodSync(path.join(bed.latheHome, "credentials.json"), 0o600);
    const tavily = await startLocalServer((_request, response) =>
      sendJson(response, 200, {
        results: [{ title: "Zod 4", url: "https://zod.dev/v4", content: "What is new." }],
      }),
    );
    const output = outputOf(
      await search(
        { query: "zod 4 release" },
        { providers: ["tavily"], tavily: { endpoint: `${tavily.origin}/search` } },
      ),
    );
    const request = tavily.requests[0];
    expect(request?.method).toBe("POST");
    expect(request?.headers.authorization).toBe("Bearer tvly-stored");
    expect(JSON.parse(request?.body ?? "{}")).toMatchObject({ query: "zod 4 release", max_results: 5 });
    expect(output).toContain("from Tavily");
    expect(output).toContain("1. Zod 4 — https://zod.dev/v4\n   What is new.");
  });

  it("reads Google CSE items with the key and engine id from the environment", async () => {
    const google = await startLocalServer((_request, response) =>
      sendJson(response, 200, {
        items: [
          { title: "MDN fetch", link: "https://developer.mozilla.org/fetch", snippet: "The fetch API." },
        ],
      }),
    );
    const tool = createWebSearchTool(() => ({
      providers: ["google"],
      google: { endpoint: `${google.origin}/customsearch/v1` },
      network: { allowLoopback: true },
      env: { GOOGLE_CSE_API_KEY: "g-key", GOOGLE_CSE_ID: "engine-1" },
    }));
    const output = outputOf(await tool.execute({ query: "fetch api" }, bed.context()));
    expect(google.requests[0]?.url).toBe("/customsearch/v1?key=g-key&cx=engine-1&q=fetch+api&num=5");
    expect(output).toContain("1. MDN fetch — https://developer.mozilla.org/fetch\n   The fetch API.");
  });

  it("treats an empty result list as an answer", async () => {
    const searxng = await searxngServer([]);
    const output = outputOf(await search({ query: "zzzz" }, { searxngUrl: searxng.origin }));
    expect(output).toBe('No results for "zzzz" from SearXNG.');
  });
});

describe("web_search: order and fall-through", () => {
  it("falls through when the first provider fails and says why", async () => {
    const brave = await failingServer(500, { error: { message: "upstream exploded" } });
    const searxng = await searxngServer(threeHits);
    const result = await search(
      { query: "vitest" },
      {
        providers: ["brave", "searxng"],
        brave: { apiKey: "k", endpoint: brave.origin },
        searxngUrl: searxng.origin,
      },
    );
    const output = outputOf(result);
    expect(brave.requests).toHaveLength(1);
    expect(output).toContain("from SearXNG");
    expect(output).toContain("(Tried first: Brave failed: HTTP 500: upstream exploded.)");
  });

  it("skips a provider without its key and never contacts it", async () => {
    const tavily = await searxngServer(threeHits);
    const searxng = await searxngServer(threeHits);
    const result = await search(
      { query: "vitest" },
      { providers: ["tavily", "searxng"], tavily: { endpoint: tavily.origin }, searxngUrl: searxng.origin },
    );
    expect(outputOf(result)).toContain("from SearXNG");
    expect(tavily.requests).toHaveLength(0);
    expect(result.ok && result.metadata?.attempts).toEqual([
      {
        provider: "tavily",
        outcome: "skipped",
        reason: expect.stringContaining("no API key (set TAVILY_API_KEY"),
      },
    ]);
  });

  it("without configuration skips the keyed providers and asks DuckDuckGo", async () => {
    const duck = await startLocalServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/html" });
      response.end(duckDuckGoPage);
    });
    const result = await search({ query: "lathe" }, { duckduckgo: { endpoint: `${duck.origin}/html/` } });
    expect(outputOf(result)).toContain("from DuckDuckGo");
    expect(duck.requests[0]?.url).toBe("/html/?q=lathe");
    const attempts = result.ok ? (result.metadata?.attempts as { provider: string }[]) : [];
    expect(attempts.map((attempt) => attempt.provider)).toEqual(["searxng", "brave", "tavily", "google"]);
  });

  it("lists every provider's reason when none answers, with keys blanked out", async () => {
    const searxng = await failingServer(403, "format json is disabled");
    const google = await startLocalServer((request, response) =>
      sendJson(response, 400, { error: { message: `API key not valid: ${request.url}` } }),
    );
    const duck = await startLocalServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/html" });
      response.end("<html><body><form id='challenge'>Are you a robot?</form></body></html>");
    });
    const error = errorOf(
      await search(
        { query: "anything" },
        {
          searxngUrl: searxng.origin,
          google: { apiKey: "SECRET-KEY-123", cx: "cx1", endpoint: google.origin },
          duckduckgo: { endpoint: duck.origin },
        },
      ),
    );
    expect(error.code).toBe("E_TOOL_EXECUTION");
    expect(error.message).toContain("No search provider answered:");
    expect(error.message).toContain("- SearXNG failed: HTTP 403: format json is disabled");
    expect(error.message).toContain("- Brave skipped: no API key (set BRAVE_API_KEY or BRAVE_SEARCH_API_KEY");
    expect(error.message).toContain("- Tavily skipped: no API key");
    expect(error.message).toContain("- Google CSE failed: HTTP 400: API key not valid: /?key=***&cx=cx1");
    expect(error.message).toContain("- DuckDuckGo failed: the page has no results list");
    expect(error.message).not.toContain("SECRET-KEY-123");
  });

  it("reports a provider that answers with something that is not its API", async () => {
    const searxng = await startLocalServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/html" });
      response.end("<html>login</html>");
    });
    const error = errorOf(
      await search({ query: "q" }, { providers: ["searxng"], searxngUrl: searxng.origin }),
    );
    expect(error.message).toContain("- SearXNG failed: the answer is not JSON: <html>login</html>");
  });
});

/** The shape of html.duckduckgo.com/html/ results, trimmed to what the parser reads. */
const duckDuckGoPage = `<!DOCTYPE html>
<html><head><title>lathe at DuckDuckGo</title></head><body>
<div class="serp__results"><div id="links" class="results">
  <div class="result results_links results_links_deep result--ad">
    <div class="links_main links_deep result__body">
      <h2 class="result__title"><a rel="nofollow" class="result__a" href="https://duckduckgo.com/y.js?ad_domain=ads.test">Buy lathes now</a></h2>
      <a class="result__snippet" href="https://duckduckgo.com/y.js">Sponsored.</a>
    </div>
  </div>
  <div class="result results_links results_links_deep web-result ">
    <div class="links_main links_deep result__body">
      <h2 class="result__title">
        <a rel="nofollow" class="result__a" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fen.wikipedia.org%2Fwiki%2FLathe&amp;rut=abc">Lathe - <b>Wikipedia</b></a>
      </h2>
      <div class="result__extras"><div class="result__extras__url"><a class="result__url" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fen.wikipedia.org%2Fwiki%2FLathe">en.wikipedia.org/wiki/Lathe</a></div></div>
      <a class="result__snippet" href="//duckduckgo.com/l/?uddg=x">A <b>lathe</b> is a machine tool that rotates a workpiece &amp; cuts it.</a>
      <div class="clear"></div>
    </div>
  </div>
  <div class="result results_links results_links_deep web-result ">
    <div class="links_main links_deep result__body">
      <h2 class="result__title"><a rel="nofollow" class="result__a" href="https://www.example.org/lathes">Choosing a lathe</a></h2>
      <a class="result__snippet" href="https://www.example.org/lathes">Wood or metal?</a>
    </div>
  </div>
</div></div>
</body></html>`;

describe("web_search: DuckDuckGo HTML", () => {
  it("reads hits, skips ads and unwraps the redirector links", () => {
    const page = parseDuckDuckGoHtml(duckDuckGoPage, "https://html.duckduckgo.com/html/?q=lathe");
    expect(page).toEqual({
      ok: true,
      results: [
        {
          title: "Lathe - Wikipedia",
          url: "https://en.wikipedia.org/wiki/Lathe",
          snippet: "A lathe is a machine tool that rotates a workpiece & cuts it.",
        },
        { title: "Choosing a lathe", url: "https://www.example.org/lathes", snippet: "Wood or metal?" },
      ],
    });
  });

  it("formats the hits of a page served locally", async () => {
    const duck = await startLocalServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end(duckDuckGoPage);
    });
    const output = outputOf(
      await search({ query: "lathe" }, { providers: ["duckduckgo"], duckduckgo: { endpoint: duck.origin } }),
    );
    expect(output).toContain(
      "1. Lathe - Wikipedia — https://en.wikipedia.org/wiki/Lathe\n   A lathe is a machine tool that rotates a workpiece & cuts it.",
    );
    expect(output).toContain("2. Choosing a lathe — https://www.example.org/lathes");
    expect(output).not.toContain("Buy lathes");
    expect(duck.requests[0]?.headers["user-agent"]).toContain("Mozilla/5.0");
  });

  it("takes a no-results page as an empty answer", () => {
    const page = parseDuckDuckGoHtml(
      '<html><body><div class="results"><div class="no-results">No results.</div></div></body></html>',
      "https://html.duckduckgo.com/html/",
    );
    expect(page).toEqual({ ok: true, results: [] });
  });
});

describe("web_search: arguments", () => {
  it("accepts 1 to 400 characters and 1 to 10 results", () => {
    const schema = createWebSearchTool(() => ({})).schema;
    expect(schema.safeParse({ query: "" }).success).toBe(false);
    expect(schema.safeParse({ query: "   " }).success).toBe(false);
    expect(schema.safeParse({ query: "x".repeat(401) }).success).toBe(false);
    expect(schema.safeParse({ query: "ok", max_results: 11 }).success).toBe(false);
    expect(schema.safeParse({ query: "ok", max_results: 10 }).success).toBe(true);
  });

  it("is a low-risk fetch tool", () => {
    const tool = createWebSearchTool(() => ({}));
    expect(tool.kind).toBe("fetch");
    expect(tool.risk({ query: "x" }, { projectRoot: bed.projectRoot })).toBe("low");
  });
});
