import type { KeySources } from "../../web/serviceKey.js";
import type { SearchProviderName, WebSearchSettings } from "../../web/webSearchSettings.js";
import type { ProviderCall } from "./providerRequest.js";
import type { SearchResult } from "./searchResult.js";

export interface SearchQuery {
  query: string;
  maxResults: number;
}

export type ProviderAnswer = { ok: true; results: SearchResult[] } | { ok: false; reason: string };

export type PreparedSearch =
  | {
      ok: true;
      /** Keys this provider will send, to be kept out of every message. */
      secrets: string[];
      search(query: SearchQuery, call: ProviderCall): Promise<ProviderAnswer>;
    }
  | { ok: false; skipped: string };

/** One search service: configured from settings and keys, or skipped with the reason why. */
export interface SearchProvider {
  name: SearchProviderName;
  /** For messages: "SearXNG", "Brave"… */
  label: string;
  prepare(settings: WebSearchSettings, keys: KeySources): PreparedSearch;
}
