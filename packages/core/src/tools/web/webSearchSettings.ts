import { z } from "zod";
import { allowancesFor, reachSchema, type WithAllowances } from "./reach.js";
import type { KeySources } from "./serviceKey.js";

/** In the order they are tried when the settings name none (SPEC §4). */
const searchProviderNameSchema = z.enum(["searxng", "brave", "tavily", "google", "duckduckgo"]);

export type SearchProviderName = z.infer<typeof searchProviderNameSchema>;

/** Keys here win over the environment and credentials.json. */
const serviceSchema = z
  .object({ apiKey: z.string().optional(), endpoint: z.string().url().optional() })
  .strict();

/**
 * `webSearch` in settings.json. Providers are tried in `providers` order; one without its URL or
 * key is skipped, so with nothing configured only DuckDuckGo (no key) answers.
 */
export const webSearchSettingsSchema = z
  .object({
    /** Order of providers to try; by default all, in the order above. */
    providers: z.array(searchProviderNameSchema).optional(),
    /** A SearXNG instance, e.g. `http://127.0.0.1:8888`; its JSON format must be enabled. */
    searxngUrl: z.string().url().optional(),
    brave: serviceSchema.optional(),
    tavily: serviceSchema.optional(),
    /** `cx` is the Programmable Search Engine id. */
    google: serviceSchema.extend({ cx: z.string().optional() }).optional(),
    duckduckgo: z.object({ endpoint: z.string().url().optional() }).strict().optional(),
    /** Time each provider gets, in milliseconds, before the next one is tried. */
    timeoutMs: z.number().int().positive().optional(),
    reach: reachSchema.optional(),
  })
  .strict();

export type WebSearchUserSettings = z.infer<typeof webSearchSettingsSchema>;

/** What `web_search` reads at each call. */
export type WebSearchSettings = WithAllowances<WebSearchUserSettings> & {
  /** Where keys are looked up after the settings; the process environment when absent. */
  env?: KeySources["env"];
};

export function webSearchSettingsFrom(
  user: WebSearchUserSettings | undefined,
  env: KeySources["env"],
): WebSearchSettings {
  const { reach, ...rest } = user ?? {};
  return { ...rest, network: allowancesFor(reach), env };
}

export const webSearchDefaults = {
  providers: searchProviderNameSchema.options,
  timeoutMs: 10_000,
  /** Largest answer accepted from a provider, in bytes. */
  maxBytes: 2 * 1024 * 1024,
  endpoints: {
    brave: "https://api.search.brave.com/res/v1/web/search",
    tavily: "https://api.tavily.com/search",
    google: "https://www.googleapis.com/customsearch/v1",
    duckduckgo: "https://html.duckduckgo.com/html/",
  },
} as const satisfies {
  providers: readonly SearchProviderName[];
  timeoutMs: number;
  maxBytes: number;
  endpoints: Record<Exclude<SearchProviderName, "searxng">, string>;
};
