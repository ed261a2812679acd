import type { Mode } from "@lathe/protocol";
import { type ContextInputs, contextSections } from "./contextSections.js";
import { baseLayer, modeLayers, recoveryLayer, toolLayers } from "./promptTemplates.js";
import { providerProfile } from "./providerProfile.js";

export interface PromptInputs extends ContextInputs {
  mode: Mode;
  /** "openai", "anthropic", "google", "deepseek", "openai-compatible", "ollama". */
  provider: string;
  /**
   * Whether apply_patch is among the offered tools. Default: the provider is "openai"; the
   * caller knows better when a model of that family is reached through another provider.
   */
  applyPatch?: boolean;
}

/**
 * The system prompt: L0 base, L1 mode policy, L2 tool guide, L3 recovery, then the L4 context
 * sections. The static layers come first so providers can cache them across requests.
 */
export function assembleSystemPrompt(inputs: PromptInputs): string {
  return [
    baseLayer,
    modeLayers[inputs.mode],
    toolGuide(inputs),
    recoveryLayer,
    ...contextSections(inputs),
  ].join("\n\n");
}

/** Modes that only read get a guide without editing and commands; small models a short one. */
function toolGuide(inputs: PromptInputs): string {
  if (inputs.mode === "ask" || inputs.mode === "plan") return toolLayers.readOnly;
  const profile = providerProfile(inputs.provider);
  const guide = profile.compactToolGuide ? toolLayers.compact : toolLayers.full;
  const applyPatch = inputs.applyPatch ?? profile.applyPatch;
  return applyPatch ? `${guide}\n\n${toolLayers.applyPatch}` : guide;
}
