/** What the prompt changes for the model family behind a provider. */
export interface ProviderProfile {
  /** Small local models follow a short tool guide better than a long one. */
  compactToolGuide: boolean;
  /** Whether apply_patch is offered: OpenAI's models are trained on its patch format. */
  applyPatch: boolean;
}

/** Providers that usually serve small models on the user's machine (Ollama, LM Studio, vLLM). */
const smallModelProviders: ReadonlySet<string> = new Set(["ollama", "openai-compatible"]);

export function providerProfile(provider: string): ProviderProfile {
  return {
    compactToolGuide: smallModelProviders.has(provider),
    applyPatch: provider === "openai",
  };
}
