import {
  atomicWriteFile,
  credentialsPath,
  type ProviderName,
  providerNames,
  readCredentialsFile,
  resolveApiKey,
} from "@lathe/core";
import type { SettingsReply } from "@lathe/protocol";
import { type ServiceResult, served, serviceError } from "@lathe/server";

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

/** Ollama runs without authentication: it has no key to store. */
const keyedProviders = providerNames.filter((name) => name !== "ollama");

function isKeyedProvider(name: string): name is ProviderName {
  return (keyedProviders as readonly string[]).includes(name);
}

/**
 * Stores a provider's key in `$LATHE_HOME/credentials.json`, where sessions look after the
 * environment, keeping the other entries. The file is written whole, atomically and readable by
 * the user alone; a file that is unreadable or readable by others is left for the user to mend.
 */
export async function storeProviderKey(
  latheHome: string,
  provider: string,
  key: string,
): Promise<ServiceResult<{ stored: true }>> {
  if (!isKeyedProvider(provider)) {
    return serviceError(
      "invalid",
      "E_INVALID_ARGS",
      `No provider ${provider} takes a key; the providers are ${keyedProviders.join(", ")}.`,
    );
  }
  const current = readCredentialsFile(latheHome);
  if (!current.ok) return serviceError("conflict", current.error.code, current.error.message);
  const credentials = {
    ...current.credentials,
    [provider]: { ...current.credentials[provider], apiKey: key },
  };
  try {
    await atomicWriteFile(credentialsPath(latheHome), `${JSON.stringify(credentials, null, 2)}\n`, {
      mode: 0o600,
    });
  } catch (error) {
    return serviceError(
      "failed",
      "E_STORAGE",
      `Cannot write ${credentialsPath(latheHome)}: ${String(error)}`,
    );
  }
  return served({ stored: true });
}
