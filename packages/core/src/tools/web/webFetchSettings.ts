import { z } from "zod";
import { type AddressAllowances, guardedFetchDefaults } from "../../policy/networkGuard/index.js";
import { allowancesFor, reachSchema, type WithAllowances } from "./reach.js";

/** `webFetch` in settings.json; every field has a default. */
export const webFetchSettingsSchema = z
  .object({
    /** Largest download accepted, in bytes, counted after decompression. */
    maxBytes: z.number().int().positive().optional(),
    /** Time for the whole exchange, every redirect and the body included, in milliseconds. */
    timeoutMs: z.number().int().positive().optional(),
    /** Redirects followed; each target passes the network guard again. */
    maxRedirects: z.number().int().nonnegative().optional(),
    /** Characters of page text shown to the model when a call gives no `max_length`. */
    maxChars: z.number().int().positive().optional(),
    reach: reachSchema.optional(),
  })
  .strict();

export type WebFetchUserSettings = z.infer<typeof webFetchSettingsSchema>;

/** What `web_fetch` reads at each call. */
export type WebFetchSettings = WithAllowances<WebFetchUserSettings>;

export function webFetchSettingsFrom(user: WebFetchUserSettings | undefined): WebFetchSettings {
  const { reach, ...rest } = user ?? {};
  return { ...rest, network: allowancesFor(reach) };
}

/** The guard's limits of one exchange (SPEC §4: a 5 MB download, at most 5 redirects), and the page text shown. */
export const webFetchDefaults = { ...guardedFetchDefaults, maxChars: 30_000 } as const;

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
