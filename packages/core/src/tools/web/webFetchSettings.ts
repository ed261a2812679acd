import type { AddressAllowances } from "../../policy/networkGuard/index.js";

/** What `web_fetch` takes from the user's settings (`webFetch` in settings.json); every field has a default. */
export interface WebFetchSettings {
  /** Largest download accepted, in bytes, counted after decompression. */
  maxBytes?: number;
  /** Time for the whole exchange, every redirect and the body included, in milliseconds. */
  timeoutMs?: number;
  /** Redirects followed; each target passes the network guard again. */
  maxRedirects?: number;
  /** Characters of page text shown to the model when a call gives no `max_length`. */
  maxChars?: number;
  /** Address classes reachable beyond public ones, e.g. loopback when the user allows localhost. */
  network?: AddressAllowances;
}

export const webFetchDefaults = {
  maxBytes: 5 * 1024 * 1024,
  timeoutMs: 20_000,
  maxRedirects: 5,
  maxChars: 30_000,
} as const;

export type ResolvedWebFetchSettings = Required<Omit<WebFetchSettings, "network">> & {
  network: AddressAllowances;
};

export function resolveWebFetchSettings(settings: WebFetchSettings): ResolvedWebFetchSettings {
  return {
    maxBytes: settings.maxBytes ?? webFetchDefaults.maxBytes,
    timeoutMs: settings.timeoutMs ?? webFetchDefaults.timeoutMs,
    maxRedirects: settings.maxRedirects ?? webFetchDefaults.maxRedirects,
    maxChars: settings.maxChars ?? webFetchDefaults.maxChars,
    network: settings.network ?? {},
  };
}
