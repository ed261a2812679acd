import { errorInfo, type LatheErrorInfo } from "@lathe/protocol";

export const providerNames = [
  "openai",
  "anthropic",
  "google",
  "deepseek",
  "openai-compatible",
  "ollama",
] as const;
export type ProviderName = (typeof providerNames)[number];

export interface ParsedModelId {
  provider: ProviderName;
  /** The provider's own model name; may itself contain colons (Ollama tags such as `qwen3:8b`). */
  model: string;
  /** `provider:model`, as the user wrote it. */
  id: string;
}

export type ModelIdParse = { ok: true; modelId: ParsedModelId } | { ok: false; error: LatheErrorInfo };

function isProviderName(value: string): value is ProviderName {
  return (providerNames as readonly string[]).includes(value);
}

/** Parses `provider:model`; only the first colon separates, so model names keep theirs. */
export function parseModelId(id: string): ModelIdParse {
  const trimmed = id.trim();
  const colon = trimmed.indexOf(":");
  const valid = `Valid providers: ${providerNames.join(", ")}.`;
  if (colon < 0) {
    return {
      ok: false,
      error: errorInfo(
        "E_INVALID_ARGS",
        `Model id "${id}" has no provider. Write it as provider:model, e.g. anthropic:claude-sonnet-4-5. ${valid}`,
      ),
    };
  }
  const provider = trimmed.slice(0, colon);
  const model = trimmed.slice(colon + 1).trim();
  if (!isProviderName(provider)) {
    return {
      ok: false,
      error: errorInfo("E_INVALID_ARGS", `Unknown provider "${provider}" in model id "${id}". ${valid}`),
    };
  }
  if (model === "") {
    return {
      ok: false,
      error: errorInfo("E_INVALID_ARGS", `Model id "${id}" names no model after "${provider}:".`),
    };
  }
  return { ok: true, modelId: { provider, model, id: `${provider}:${model}` } };
}
