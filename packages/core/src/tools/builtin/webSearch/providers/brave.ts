import { z } from "zod";
import { serviceKey } from "../../../web/serviceKey.js";
import { webSearchDefaults } from "../../../web/webSearchSettings.js";
import { parseAnswer, providerRequest } from "../providerRequest.js";
import type { SearchProvider } from "../searchProvider.js";
import { normaliseResults } from "../searchResult.js";

const answerSchema = z.object({
  web: z
    .object({
      results: z.array(
        z.object({ url: z.string(), title: z.string().optional(), description: z.string().optional() }),
      ),
    })
    .optional(),
});

/** Brave Search API; the key goes in `X-Subscription-Token`. */
export const braveProvider: SearchProvider = {
  name: "brave",
  label: "Brave",
  prepare(settings, keys) {
    const key = serviceKey("brave", settings.brave?.apiKey, ["BRAVE_API_KEY", "BRAVE_SEARCH_API_KEY"], keys);
    if (!key.ok) return { ok: false, skipped: key.reason };
    const endpoint = settings.brave?.endpoint ?? webSearchDefaults.endpoints.brave;
    return {
      ok: true,
      secrets: [key.key],
      async search({ query, maxResults }, call) {
        const url = new URL(endpoint);
        url.searchParams.set("q", query);
        url.searchParams.set("count", String(maxResults));
        const headers = { accept: "application/json", "x-subscription-token": key.key };
        const body = await providerRequest(url.href, { headers }, call);
        if (!body.ok) return body;
        const answer = parseAnswer(body.text, answerSchema);
        if (!answer.ok) return answer;
        const raw = (answer.value.web?.results ?? []).map((entry) => ({
          ...entry,
          snippet: entry.description,
        }));
        return { ok: true, results: normaliseResults(raw, maxResults, "html") };
      },
    };
  },
};
