/** What a secret in the settings reads as over the API. */
export const redactedSetting = "[redacted]";

type Json = unknown;

/** `webSearch.brave.apiKey` and the like, and every OTLP header (they carry tokens). */
function isSecretPath(path: readonly string[]): boolean {
  return path.at(-1) === "apiKey" || path.at(-2) === "otlpHeaders";
}

function isRecord(value: Json): value is Record<string, Json> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A copy of the settings with every secret string replaced by the marker, for a client to read. */
export function redactSettings(value: Json, path: readonly string[] = []): Json {
  if (typeof value === "string" && isSecretPath(path)) return redactedSetting;
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, redactSettings(inner, [...path, key])]),
  );
}

/**
 * Settings coming back from a client that read them redacted: where the marker stands for a
 * secret, the stored secret is put back; a marker with nothing stored behind it is dropped, so
 * the marker itself is never saved as a key.
 */
export function keepStoredSecrets(incoming: Json, stored: Json, path: readonly string[] = []): Json {
  if (!isRecord(incoming)) return incoming;
  const kept: Record<string, Json> = {};
  for (const [key, value] of Object.entries(incoming)) {
    const storedValue = isRecord(stored) ? stored[key] : undefined;
    const inner = [...path, key];
    if (value === redactedSetting && isSecretPath(inner)) {
      if (typeof storedValue === "string") kept[key] = storedValue;
      continue;
    }
    kept[key] = keepStoredSecrets(value, storedValue, inner);
  }
  return kept;
}
