import { z } from "zod";
import { serviceKey } from "../../../web/serviceKey.js";
import { webSearchDefaults } from "../../../web/webSearchSettings.js";
import { parseAnswer, providerRequest } from "../providerRequest.js";
import type { SearchProvider } from "../searchProvider.js";
import { normaliseResults } from "../searchResult.js";

const answerSchema = z.object({
  results: z.array(
    z.object({ url: z.string(), title: z.string().optional(), content: z.string().optional() }),
  ),
});

/** Tavily's search API: a JSON POST with the key as a bearer token. */
export const tavilyProvider: SearchProvider = {
  name: "tavily",
  label: "Tavily",
  prepare(settings, keys) {
    const key = serviceKey("tavily", settings.tavily?.apiKey, ["TAVILY_API_KEY"], keys);
    if (!key.ok) return { ok: false, skipped: key.reason };
    const endpoint = settings.tavily?.endpoint ?? webSearchDefaults.endpoints.tavily;
    return {
      ok: true,
      secrets: [key.key],
      async search({ query, maxResults }, call) {
        const body = await providerRequest(
          endpoint,
          {
            method: "POST",
            headers: {
              accept: "application/json",
              "content-type": "application/json",
              authorization: `Bearer ${key.key}`,
            },
            body: JSON.stringify({ query, max_results: maxResults, search_depth: "basic" }),
          },
          call,
        );
        if (!body.ok) return body;
        const answer = parseAnswer(body.text, answerSchema);
        if (!answer.ok) return answer;
        const raw = answer.value.results.map((entry) => ({ ...entry, snippet: entry.content }));
        return { ok: true, results: normaliseResults(raw, maxResults) };
      },
    };
  },
};
