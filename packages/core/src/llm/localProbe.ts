import { z } from "zod";
import { apiKeyEnvVars, credentialsPath } from "./credentials.js";
import { providerNames } from "./modelId.js";
import { defaultBaseUrls } from "./providers.js";

export interface ProbeSettings {
  /** How long each server gets to answer; local servers answer in milliseconds when they run. */
  timeoutMs?: number;
  /** Ollama's root URL (its native API, not /v1). */
  ollamaUrl?: string;
  /** LM Studio's OpenAI-compatible base URL (ends in /v1). */
  lmStudioUrl?: string;
}

export interface LocalServer {
  name: "Ollama" | "LM Studio";
  provider: "ollama" | "openai-compatible";
  /** The base URL to configure for the provider. */
  baseUrl: string;
  models: string[];
}

export interface LocalProbeResult {
  servers: LocalServer[];
}

const defaultOllamaUrl = "http://127.0.0.1:11434";
const defaultLmStudioUrl = defaultBaseUrls["openai-compatible"];

const ollamaTagsSchema = z.object({ models: z.array(z.object({ name: z.string() })) });
const openAiModelsSchema = z.object({ data: z.array(z.object({ id: z.string() })) });

/** Asks a local Ollama and LM Studio, at the same time, which models they serve; silent ones are left out. */
export async function probeLocalProviders(settings: ProbeSettings = {}): Promise<LocalProbeResult> {
  const timeoutMs = settings.timeoutMs ?? 1000;
  const ollamaUrl = (settings.ollamaUrl ?? defaultOllamaUrl).replace(/\/+$/, "");
  const lmStudioUrl = (settings.lmStudioUrl ?? defaultLmStudioUrl).replace(/\/+$/, "");
  const [ollama, lmStudio] = await Promise.all([
    getJson(`${ollamaUrl}/api/tags`, timeoutMs).then((json): LocalServer | undefined => {
      const parsed = ollamaTagsSchema.safeParse(json);
      if (!parsed.success) return undefined;
      const models = parsed.data.models.map((m) => m.name);
      return { name: "Ollama", provider: "ollama", baseUrl: `${ollamaUrl}/v1`, models };
    }),
    getJson(`${lmStudioUrl}/models`, timeoutMs).then((json): LocalServer | undefined => {
      const parsed = openAiModelsSchema.safeParse(json);
      if (!parsed.success) return undefined;
      const models = parsed.data.data.map((m) => m.id);
      return { name: "LM Studio", provider: "openai-compatible", baseUrl: lmStudioUrl, models };
    }),
  ]);
  return { servers: [ollama, lmStudio].filter((server): server is LocalServer => server !== undefined) };
}

async function getJson(url: string, timeoutMs: number): Promise<unknown> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) return undefined;
    return await response.json();
  } catch {
    return undefined;
  }
}

const examples = [
  { provider: "anthropic", model: "anthropic:claude-sonnet-4-5" },
  { provider: "openai", model: "openai:gpt-4.1" },
  { provider: "google", model: "google:gemini-2.5-pro" },
  { provider: "deepseek", model: "deepseek:deepseek-chat" },
] as const;

/** What to tell a user who has no provider configured: every way to set one up, local servers first. */
export function noProviderHelp(probe: LocalProbeResult, latheHome = "$LATHE_HOME"): string {
  const lines = ["No model provider is configured.", ""];
  if (probe.servers.length === 0) {
    lines.push("No local Ollama (127.0.0.1:11434) or LM Studio (127.0.0.1:1234) answered.", "");
  }
  for (const server of probe.servers) {
    const first = server.models[0];
    const baseUrlFlag =
      server.baseUrl === defaultBaseUrls[server.provider] ? "" : ` --base-url ${server.baseUrl}`;
    if (first) {
      lines.push(
        `Found ${server.name} at ${server.baseUrl} serving: ${server.models.join(", ")}. To use it:`,
      );
      lines.push(`  lathe --model ${server.provider}:${first}${baseUrlFlag}`, "");
    } else {
      lines.push(
        `Found ${server.name} at ${server.baseUrl}, but it serves no models yet; load or pull one first.`,
        "",
      );
    }
  }
  lines.push("To use a hosted provider, set its API key and pick a model:");
  const exports = examples.map((e) => `export ${apiKeyEnvVars[e.provider][0]}=…`);
  const width = Math.max(...exports.map((e) => e.length));
  for (const [index, example] of examples.entries()) {
    lines.push(`  ${exports[index]!.padEnd(width)}   then: lathe --model ${example.model}`);
  }
  lines.push(
    "",
    `Or keep keys in ${credentialsPath(latheHome)} (chmod 600), e.g. {"anthropic": {"apiKey": "…"}}, or pass --api-key.`,
    "",
    "Local and other OpenAI-compatible servers (Ollama, LM Studio, vLLM, OpenRouter, Groq, …):",
    "  lathe --model ollama:<model>                                 (Ollama at 127.0.0.1:11434, no key)",
    "  lathe --model openai-compatible:<model> --base-url <url>/v1  (key from OPENAI_COMPATIBLE_API_KEY if needed)",
    "",
    `Model ids are provider:model; providers: ${providerNames.join(", ")}.`,
    `To make a choice stick, put {"model": "provider:model"} in ${latheHome}/settings.json or set LATHE_MODEL.`,
  );
  return lines.join("\n");
}
