import {
  atomicWriteFile,
  credentialsPath,
  type ProviderName,
  providerNames,
  readCredentialsFile,
} from "@lathe/core";
import { type ServiceResult, served, serviceError } from "@lathe/server";

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
