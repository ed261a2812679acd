import type { EmbeddingModelV3, LanguageModelV3 } from "@ai-sdk/provider";
import type { ParsedModelId, ProviderName } from "./modelId.js";

/**
 * Where each provider is reached when no base URL is configured. They are always passed to the
 * SDK explicitly, because the SDK would otherwise consult process.env (OPENAI_BASE_URL, …)
 * behind the caller's back.
 */
export const defaultBaseUrls: Record<ProviderName, string> = {
  openai: "https://api.openai.com/v1",
  anthropic: "https://api.anthropic.com/v1",
  google: "https://generativelanguage.googleapis.com/v1beta",
  deepseek: "https://api.deepseek.com",
  // LM Studio's default address: the most common OpenAI-compatible server on a developer's machine.
  "openai-compatible": "http://127.0.0.1:1234/v1",
  // Ollama serves the OpenAI chat-completions API under /v1, so it goes through the same client.
  ollama: "http://127.0.0.1:11434/v1",
};

/**
 * Each provider package, imported at its first use and kept. A model is built for every request
 * (its fetch carries that request's timers), and importing a module again, loaded or not, still
 * goes through the module loader each time.
 */
const openaiPackage = importedOnce(() => import("@ai-sdk/openai"));
const anthropicPackage = importedOnce(() => import("@ai-sdk/anthropic"));
const googlePackage = importedOnce(() => import("@ai-sdk/google"));
const deepseekPackage = importedOnce(() => import("@ai-sdk/deepseek"));
const compatiblePackage = importedOnce(() => import("@ai-sdk/openai-compatible"));

/**
 * Loads every provider package now. The CLI's start-up snapshot calls this while it is built, so
 * the packages (and the response schemas they build as they load) are in the snapshot's heap.
 */
export async function loadProviderPackages(): Promise<void> {
  await Promise.all([
    openaiPackage(),
    anthropicPackage(),
    googlePackage(),
    deepseekPackage(),
    compatiblePackage(),
  ]);
}

function importedOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load();
    return loading;
  };
}

export interface ProviderConnection {
  /** Overrides the provider's default base URL (for OpenAI-compatible servers it ends in `/v1`). */
  baseUrl?: string;
  apiKey?: string;
  /** Used for every HTTP request of the model; must be a real fetch (or a wrapper around one). */
  fetch?: typeof fetch;
}

/**
 * Builds the AI SDK model for an id. Keys are always passed in: the SDK must not read the
 * environment. Each provider's package is loaded when first used, so starting Lathe loads only
 * the one the session talks to.
 */
export async function createLanguageModel(
  id: ParsedModelId,
  connection: ProviderConnection,
): Promise<LanguageModelV3> {
  const { baseURL, apiKey, fetch } = sdkOptions(id, connection);
  switch (id.provider) {
    case "openai": {
      const { createOpenAI } = await openaiPackage();
      // Chat completions rather than the Responses API: it is what OpenAI-style servers share.
      return createOpenAI({ baseURL, apiKey, fetch }).chat(id.model);
    }
    case "anthropic": {
      const { createAnthropic } = await anthropicPackage();
      return createAnthropic({ baseURL, apiKey, fetch })(id.model);
    }
    case "google": {
      const { createGoogleGenerativeAI } = await googlePackage();
      return createGoogleGenerativeAI({ baseURL, apiKey, fetch })(id.model);
    }
    case "deepseek": {
      const { createDeepSeek } = await deepseekPackage();
      return createDeepSeek({ baseURL, apiKey, fetch })(id.model);
    }
    case "openai-compatible":
    case "ollama": {
      return (await compatibleProvider(id, connection))(id.model);
    }
  }
}

/** Whether a provider offers embedding models at all. */
export function offersEmbeddings(provider: ParsedModelId["provider"]): boolean {
  return provider !== "anthropic" && provider !== "deepseek";
}

/** Builds the AI SDK embedding model for an id of a provider that `offersEmbeddings`. */
export async function createEmbeddingModel(
  id: ParsedModelId,
  connection: ProviderConnection,
): Promise<EmbeddingModelV3> {
  const { baseURL, apiKey, fetch } = sdkOptions(id, connection);
  switch (id.provider) {
    case "google": {
      const { createGoogleGenerativeAI } = await googlePackage();
      return createGoogleGenerativeAI({ baseURL, apiKey, fetch }).embedding(id.model);
    }
    case "openai-compatible":
    case "ollama": {
      return (await compatibleProvider(id, connection)).embeddingModel(id.model);
    }
    default: {
      const { createOpenAI } = await openaiPackage();
      return createOpenAI({ baseURL, apiKey, fetch }).embedding(id.model);
    }
  }
}

/** An OpenAI-compatible server (LM Studio, vLLM, Ollama…): the key stays absent when none is set. */
async function compatibleProvider(id: ParsedModelId, connection: ProviderConnection) {
  const { createOpenAICompatible } = await compatiblePackage();
  return createOpenAICompatible({
    name: id.provider,
    baseURL: sdkOptions(id, connection).baseURL,
    apiKey: connection.apiKey,
    fetch: connection.fetch,
    // Without it the servers send no usage in streamed responses.
    includeUsage: true,
  });
}

/** What every provider factory is given: the base URL always explicit, the key never absent. */
function sdkOptions(id: ParsedModelId, connection: ProviderConnection) {
  return {
    baseURL: connection.baseUrl ?? defaultBaseUrls[id.provider],
    // The SDK falls back to process.env when apiKey is undefined; an empty key fails loudly instead.
    apiKey: connection.apiKey ?? "",
    fetch: connection.fetch,
  };
}
