import type { AddressAllowances } from "../../../policy/networkGuard/index.js";

export type ImageSize = "256x256" | "512x512" | "1024x1024";

interface CommonImageSettings {
  /** Time for one generation, the whole exchange included, in milliseconds. */
  timeoutMs?: number;
  /** Largest answer accepted, in bytes; base64 images make answers large. */
  maxBytes?: number;
  /** Address classes reachable beyond public ones, e.g. loopback for a WebUI on this machine. */
  network?: AddressAllowances;
  /** Where the key is looked up after `apiKey`; the process environment when absent. */
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * An OpenAI-style images API (`POST {baseUrl}/images/generations`). Keys as for the model
 * providers: `apiKey`, then OPENAI_API_KEY (or OPENAI_COMPATIBLE_API_KEY, optional, for other
 * servers), then credentials.json.
 */
export interface OpenAiImageSettings extends CommonImageSettings {
  provider: "openai" | "openai-compatible";
  /** Default `https://api.openai.com/v1` for "openai"; required for "openai-compatible". */
  baseUrl?: string;
  model?: string;
  apiKey?: string;
}

/** A Stable Diffusion WebUI (AUTOMATIC1111 or Forge) started with `--api`. */
export interface SdWebUiSettings extends CommonImageSettings {
  provider: "sd-webui";
  /** The WebUI's address, e.g. `http://127.0.0.1:7860`. */
  url: string;
  steps?: number;
  negativePrompt?: string;
}

/** `imageGeneration` in settings.json; absent means generate_image is off (SPEC §4). */
export type ImageGenerationSettings = OpenAiImageSettings | SdWebUiSettings;

export const imageGenerationDefaults = {
  openAiBaseUrl: "https://api.openai.com/v1",
  model: "gpt-image-1",
  size: "1024x1024",
  timeoutMs: 180_000,
  maxBytes: 64 * 1024 * 1024,
  steps: 20,
} as const satisfies {
  openAiBaseUrl: string;
  model: string;
  size: ImageSize;
  timeoutMs: number;
  maxBytes: number;
  steps: number;
};
