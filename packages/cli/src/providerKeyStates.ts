import { providerNames, resolveApiKey } from "@lathe/core";
import type { SettingsReply } from "@lathe/protocol";

export interface KeyPlaces {
  latheHome: string;
  env: Record<string, string | undefined>;
}

type ProviderKeyState = SettingsReply["providers"][number];

/** Where each provider's key would come from, the way a session looks it up; never the key. */
export function providerKeyStates(places: KeyPlaces): ProviderKeyState[] {
  return providerNames.map((name) => {
    const lookup = resolveApiKey(name, places);
    if (!lookup.ok || lookup.apiKey === undefined) return { name, hasKey: false, source: "none" as const };
    return {
      name,
      hasKey: true,
      source: lookup.source === "env" ? ("env" as const) : ("credentials" as const),
    };
  });
}

/** The providers with a key, for offering their models. */
export function providersWithKeys(places: KeyPlaces): Set<string> {
  return new Set(
    providerKeyStates(places)
      .filter((state) => state.hasKey)
      .map((state) => state.name),
  );
}
