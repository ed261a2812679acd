import { z } from "zod";
import { serviceKey } from "../../../web/serviceKey.js";
import { webSearchDefaults } from "../../../web/webSearchSettings.js";
import { parseAnswer, providerRequest } from "../providerRequest.js";
import type { SearchProvider } from "../searchProvider.js";
import { normaliseResults } from "../searchResult.js";

const answerSchema = z.object({
  // Google leaves `items` out entirely when nothing matched.
  items: z
    .array(z.object({ link: z.string(), title: z.string().optional(), snippet: z.string().optional() }))
    .optional(),
});

/** Google Programmable Search (Custom Search JSON API): a key and a search engine id (`cx`). */
export const googleCseProvider: SearchProvider = {
  name: "google",
  label: "Google CSE",
  prepare(settings, keys) {
    const key = serviceKey("google-cse", settings.google?.apiKey, ["GOOGLE_CSE_API_KEY"], keys);
    if (!key.ok) return { ok: false, skipped: key.reason };
    const cx = settings.google?.cx?.trim() || keys.env.GOOGLE_CSE_ID?.trim();
    if (!cx) return { ok: false, skipped: "no search engine id (set google.cx or GOOGLE_CSE_ID)" };
    const endpoint = settings.google?.endpoint ?? webSearchDefaults.endpoints.google;
    return {
      ok: true,
      secrets: [key.key],
      async search({ query, maxResults }, call) {
        const url = new URL(endpoint);
        url.searchParams.set("key", key.key);
        url.searchParams.set("cx", cx);
        url.searchParams.set("q", query);
        url.searchParams.set("num", String(maxResults));
        const body = await providerRequest(url.href, { headers: { accept: "application/json" } }, call);
        if (!body.ok) return body;
        const answer = parseAnswer(body.text, answerSchema);
        if (!answer.ok) return answer;
        const raw = (answer.value.items ?? []).map((entry) => ({ ...entry, url: entry.link }));
        return { ok: true, results: normaliseResults(raw, maxResults) };
      },
    };
  },
};
