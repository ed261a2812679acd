import { webSearchDefaults } from "../../../web/webSearchSettings.js";
import { providerRequest } from "../providerRequest.js";
import type { SearchProvider } from "../searchProvider.js";
import { normaliseResults } from "../searchResult.js";

/** DuckDuckGo's HTML page: no key, so it is the fallback that always takes part. */
export const duckDuckGoProvider: SearchProvider = {
  name: "duckduckgo",
  label: "DuckDuckGo",
  prepare(settings) {
    const endpoint = settings.duckduckgo?.endpoint ?? webSearchDefaults.endpoints.duckduckgo;
    return {
      ok: true,
      secrets: [],
      async search({ query, maxResults }, call) {
        const url = new URL(endpoint);
        url.searchParams.set("q", query);
        // The HTML endpoint turns away clients that do not look like a browser.
        const headers = {
          accept: "text/html",
          "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko)",
        };
        const body = await providerRequest(url.href, { headers }, call);
        if (!body.ok) return body;
        // The HTML parser loads with the first DuckDuckGo search, not when Lathe starts.
        const { parseDuckDuckGoHtml } = await import("./duckDuckGoHtml.js");
        const page = parseDuckDuckGoHtml(body.text, url.href);
        if (!page.ok) return page;
        return { ok: true, results: normaliseResults(page.results, maxResults) };
      },
    };
  },
};
