import type { AddressAllowances } from "../../policy/networkGuard/index.js";

export type SearchProviderName = "searxng" | "brave" | "tavily" | "google" | "duckduckgo";

/**
 * What `web_search` takes from the user's settings (`webSearch` in settings.json). Providers are
 * tried in `providers` order; one without its URL or key is skipped, so with nothing configured
 * only DuckDuckGo (no key) answers.
 */
export interface WebSearchSettings {
  /** Order of providers to try; default: searxng, brave, tavily, google, duckduckgo (SPEC §4). */
  providers?: readonly SearchProviderName[];
  /** A SearXNG instance, e.g. `http://127.0.0.1:8888`; its JSON format must be enabled. */
  searxngUrl?: string;
  /** Keys here win over the environment and credentials.json. */
  brave?: { apiKey?: string; endpoint?: string };
  tavily?: { apiKey?: string; endpoint?: string };
  /** `cx` is the Programmable Search Engine id. */
  google?: { apiKey?: string; cx?: string; endpoint?: string };
  duckduckgo?: { endpoint?: string };
  /** Time each provider gets, in milliseconds, before the next one is tried. */
  timeoutMs?: number;
  /** Largest answer accepted from a provider, in bytes. */
  maxBytes?: number;
  /** Address classes reachable beyond public ones, e.g. loopback for a SearXNG on localhost. */
  network?: AddressAllowances;
  /** Where keys are looked up after the settings; the process environment when absent. */
  env?: Readonly<Record<string, string | undefined>>;
}

export const webSearchDefaults = {
  providers: ["searxng", "brave", "tavily", "google", "duckduckgo"],
  timeoutMs: 10_000,
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
