import { readCredentialsFile } from "../../llm/credentials.js";

export interface KeySources {
  env: Readonly<Record<string, string | undefined>>;
  latheHome: string;
}

export type KeyLookup =
  | { ok: true; key: string }
  /** `missing`: no key anywhere, as opposed to a credentials file that could not be read. */
  | { ok: false; missing: boolean; reason: string };

/**
 * A web service's key, found as the model providers' keys are: the setting, then the environment,
 * then `$LATHE_HOME/credentials.json` under the service's name (`{"brave": {"apiKey": "…"}}`).
 */
export function serviceKey(
  service: string,
  explicit: string | undefined,
  envNames: readonly string[],
  sources: KeySources,
): KeyLookup {
  if (explicit?.trim()) return { ok: true, key: explicit.trim() };
  for (const name of envNames) {
    const value = sources.env[name]?.trim();
    if (value) return { ok: true, key: value };
  }
  const file = readCredentialsFile(sources.latheHome);
  if (!file.ok) return { ok: false, missing: false, reason: file.error.message };
  const stored = file.credentials[service]?.apiKey?.trim();
  if (stored) return { ok: true, key: stored };
  return {
    ok: false,
    missing: true,
    reason: `no API key (set ${envNames.join(" or ")}, or add {"${service}": {"apiKey": "…"}} to ${file.path})`,
  };
}
