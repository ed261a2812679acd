import { z } from "zod";
import type { AddressAllowances } from "../../policy/networkGuard/index.js";

/**
 * How far a web tool may reach, as the user writes it in settings.json: `"local"` lets it reach
 * loopback and private addresses too (a self-hosted SearXNG or image WebUI); public is the default.
 */
export const reachSchema = z.enum(["public", "local"]);

export type Reach = z.infer<typeof reachSchema>;

/** A web tool's settings as the tool reads them: the user's, with `reach` as the guard's allowances. */
export type WithAllowances<UserSettings> = UserSettings extends unknown
  ? Omit<UserSettings, "reach"> & {
      /** Address classes reachable beyond public ones, e.g. loopback for a server on this machine. */
      network?: AddressAllowances;
    }
  : never;

/** What `reach` means to the network guard. */
export function allowancesFor(reach: Reach | undefined): AddressAllowances {
  return reach === "local" ? { allowLoopback: true, allowPrivate: true } : {};
}
