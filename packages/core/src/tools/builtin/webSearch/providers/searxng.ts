import { z } from "zod";
import { parseAnswer, providerRequest } from "../providerRequest.js";
import type { SearchProvider } from "../searchProvider.js";
import { normaliseResults } from "../searchResult.js";

const answerSchema = z.object({
  results: z.array(
    z.object({ url: z.string(), title: z.string().optional(), content: z.string().optional() }),
  ),
});

/** A SearXNG instance's JSON API (`/search?format=json`); needs no key, only the instance URL. */
export const searxngProvider: SearchProvider = {
  name: "searxng",
  label: "SearXNG",
  prepare(settings) {
    const base = settings.searxngUrl?.trim();
    if (!base) return { ok: false, skipped: "no searxngUrl configured" };
    return {
      ok: true,
      secrets: [],
      async search({ query, maxResults }, call) {
        const url = searchUrl(base);
        if (url === undefined) return { ok: false, reason: `searxngUrl is not a valid URL: ${base}` };
        url.searchParams.set("q", query);
        url.searchParams.set("format", "json");
        const body = await providerRequest(url.href, { headers: { accept: "application/json" } }, call);
        if (!body.ok) return body;
        const answer = parseAnswer(body.text, answerSchema);
        if (!answer.ok) return answer;
        const raw = answer.value.results.map((entry) => ({ ...entry, snippet: entry.content }));
        return { ok: true, results: normaliseResults(raw, maxResults) };
      },
    };
  },
};

/** `/search` under the instance, which may itself live under a path (`https://host/searx/`). */
function searchUrl(base: string): URL | undefined {
  try {
    return new URL("search", base.endsWith("/") ? base : `${base}/`);
  } catch {
    return undefined;
  }
}
