import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";
import { resolveApiKey } from "./credentials.js";
import { parseModelId } from "./modelId.js";
import { createEmbeddingModel, offersEmbeddings } from "./providers.js";

export interface EmbedderSettings {
  /** `provider:model`, e.g. `openai:text-embedding-3-small` or `ollama:nomic-embed-text`. */
  modelId: string;
  baseUrl?: string;
  apiKey?: string;
  env: Record<string, string | undefined>;
  latheHome: string;
}

/** Texts per request when the provider states no limit. */
const defaultBatch = 96;

/**
 * An embedding function for the code index (SPEC §6: embeddings when an embedding model is
 * configured): texts in, one vector per text out, in order, batched as the provider allows.
 */
export function createEmbedder(
  settings: EmbedderSettings,
): { ok: true; embed: (texts: string[]) => Promise<number[][]> } | { ok: false; error: LatheErrorInfo } {
  const parsed = parseModelId(settings.modelId);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  const id = parsed.modelId;
  const key = resolveApiKey(id.provider, {
    env: settings.env,
    latheHome: settings.latheHome,
    apiKey: settings.apiKey,
  });
  if (!key.ok) return key;
  if (!offersEmbeddings(id.provider)) {
    return {
      ok: false,
      error: errorInfo(
        "E_INVALID_ARGS",
        `${id.provider} offers no embedding models; use openai, google, openai-compatible or ollama.`,
      ),
    };
  }
  return {
    ok: true,
    embed: async (texts) => {
      const model = await createEmbeddingModel(id, {
        // An empty address is none: the provider's own serves.
        baseUrl: settings.baseUrl || undefined,
        apiKey: key.apiKey,
      });
      const batch = (await model.maxEmbeddingsPerCall) ?? defaultBatch;
      const vectors: number[][] = [];
      for (let start = 0; start < texts.length; start += batch) {
        const result = await model.doEmbed({ values: texts.slice(start, start + batch) });
        vectors.push(...result.embeddings);
      }
      return vectors;
    },
  };
}
