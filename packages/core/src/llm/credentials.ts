import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { z } from "zod";
import { environmentSecrets } from "../secrets/secretVariables.js";
import type { ProviderName } from "./modelId.js";

/** Environment variables holding each provider's key, in the order they are consulted. */
export const apiKeyEnvVars: Record<ProviderName, readonly string[]> = {
  openai: ["OPENAI_API_KEY"],
  anthropic: ["ANTHROPIC_API_KEY"],
  google: ["GEMINI_API_KEY", "GOOGLE_GENERATIVE_AI_API_KEY"],
  deepseek: ["DEEPSEEK_API_KEY"],
  "openai-compatible": ["OPENAI_COMPATIBLE_API_KEY"],
  ollama: [],
};

/** Local servers usually run without authentication, so a missing key is not an error for them. */
const keyOptional: ReadonlySet<ProviderName> = new Set(["openai-compatible", "ollama"]);

const credentialsFileSchema = z.record(z.string(), z.object({ apiKey: z.string().optional() }).loose());
export type CredentialsFile = z.infer<typeof credentialsFileSchema>;

export type KeySource = "setting" | "env" | "credentials" | "none";

export type ApiKeyLookup =
  | { ok: true; apiKey: string | undefined; source: KeySource; sourceName?: string }
  | { ok: false; error: LatheErrorInfo };

/**
 * The sentence that tells the user how to give Lathe a key for a provider. A face words it for
 * where its user is (the web UI points to its Settings); the default speaks to a terminal.
 */
export type AuthAdvice = (provider: ProviderName, rejected?: { source: KeySource }) => string;

export interface ApiKeySettings {
  /** An explicit key (flag or setting); wins over everything else. */
  apiKey?: string;
  env: Record<string, string | undefined>;
  latheHome: string;
  authAdvice?: AuthAdvice;
}

export function credentialsPath(latheHome: string): string {
  return join(latheHome, "credentials.json");
}

/** Explicit key > environment > `$LATHE_HOME/credentials.json`. */
export function resolveApiKey(provider: ProviderName, settings: ApiKeySettings): ApiKeyLookup {
  if (settings.apiKey) return { ok: true, apiKey: settings.apiKey, source: "setting" };
  if (provider === "ollama") return { ok: true, apiKey: undefined, source: "none" };
  for (const name of apiKeyEnvVars[provider]) {
    const value = settings.env[name]?.trim();
    if (value) return { ok: true, apiKey: value, source: "env", sourceName: name };
  }
  const file = readCredentialsFile(settings.latheHome);
  if (!file.ok) return file;
  const stored = file.credentials[provider]?.apiKey?.trim();
  if (stored) return { ok: true, apiKey: stored, source: "credentials", sourceName: file.path };
  if (keyOptional.has(provider)) return { ok: true, apiKey: undefined, source: "none" };
  return {
    ok: false,
    error: errorInfo(
      "E_LLM_AUTH",
      `No API key for ${provider}. ${(settings.authAdvice ?? terminalAuthAdvice(settings.latheHome))(provider)}`,
    ),
  };
}

export type CredentialsRead =
  | { ok: true; credentials: CredentialsFile; path: string }
  | { ok: false; error: LatheErrorInfo };

/**
 * Reads `credentials.json`; a missing file is an empty one. A file other users can read is
 * refused outright rather than used, so a leaked key is noticed instead of silently relied on.
 */
export function readCredentialsFile(latheHome: string): CredentialsRead {
  const path = credentialsPath(latheHome);
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch {
    return { ok: true, credentials: {}, path };
  }
  // Windows has no POSIX permission bits; there the check would always fail.
  if (process.platform !== "win32" && (mode & 0o077) !== 0) {
    const octal = (mode & 0o777).toString(8).padStart(4, "0");
    return {
      ok: false,
      error: errorInfo(
        "E_LLM_AUTH",
        `Refusing to read ${path}: its mode is ${octal}, so other users can read or change your API keys. Run: chmod 600 ${path}`,
      ),
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, error: errorInfo("E_LLM_AUTH", `${path} is not valid JSON: ${reason}`) };
  }
  const parsed = credentialsFileSchema.safeParse(json);
  if (!parsed.success) {
    return {
      ok: false,
      error: errorInfo(
        "E_LLM_AUTH",
        `${path} must look like {"openai": {"apiKey": "…"}}: ${parsed.error.message}`,
      ),
    };
  }
  return { ok: true, credentials: parsed.data, path };
}

/** How to give Lathe a key from a terminal: environment variables, credentials.json, or the flag. */
export function terminalAuthAdvice(latheHome: string): AuthAdvice {
  return (provider) => {
    if (provider === "ollama") {
      return "Ollama needs no key; check that --base-url points at your Ollama server (default http://127.0.0.1:11434/v1).";
    }
    const vars = apiKeyEnvVars[provider].join(" or ");
    const file = credentialsPath(latheHome);
    return `Set ${vars}, or add {"${provider}": {"apiKey": "…"}} to ${file} (chmod 600), or pass --api-key.`;
  };
}

/** Keys of the search services web_search can use: secrets like the providers' own. */
const serviceKeyEnvVars = [
  "BRAVE_API_KEY",
  "BRAVE_SEARCH_API_KEY",
  "TAVILY_API_KEY",
  "GOOGLE_CSE_API_KEY",
  "OPENAI_COMPATIBLE_API_KEY",
];

/**
 * Every API key this process could send, and the value of every variable whose name says it is a
 * secret (`GITHUB_TOKEN`…): what must never be written to a log, a trace, the session database,
 * an export or a tool result.
 */
export function knownSecrets(settings: ApiKeySettings): string[] {
  const fromEnv = [...Object.values(apiKeyEnvVars).flat(), ...serviceKeyEnvVars]
    .map((name) => settings.env[name])
    .concat(environmentSecrets(settings.env));
  const file = readCredentialsFile(settings.latheHome);
  const fromFile = file.ok ? Object.values(file.credentials).map((entry) => entry.apiKey) : [];
  return [settings.apiKey, ...fromEnv, ...fromFile].filter(
    (value): value is string => typeof value === "string" && value.trim() !== "",
  );
}
