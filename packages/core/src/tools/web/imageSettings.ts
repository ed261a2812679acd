import { z } from "zod";
import { allowancesFor, reachSchema, type WithAllowances } from "./reach.js";
import type { KeySources } from "./serviceKey.js";

export const imageSizeSchema = z.enum(["256x256", "512x512", "1024x1024"]);

export type ImageSize = z.infer<typeof imageSizeSchema>;

const commonImageSettings = {
  /** Time for one generation, the whole exchange included, in milliseconds. */
  timeoutMs: z.number().int().positive().optional(),
  reach: reachSchema.optional(),
};

/**
 * An OpenAI-style images API (`POST {baseUrl}/images/generations`). Keys as for the model
 * providers: OPENAI_API_KEY (or OPENAI_COMPATIBLE_API_KEY, optional, for other servers), then
 * credentials.json.
 */
const openAiImageSettingsSchema = z
  .object({
    provider: z.enum(["openai", "openai-compatible"]),
    /** Default `https://api.openai.com/v1` for "openai"; required for "openai-compatible". */
    baseUrl: z.string().url().optional(),
    model: z.string().optional(),
    ...commonImageSettings,
  })
  .strict();

/** A Stable Diffusion WebUI (AUTOMATIC1111 or Forge) started with `--api`. */
const sdWebUiSettingsSchema = z
  .object({
    provider: z.literal("sd-webui"),
    /** The WebUI's address, e.g. `http://127.0.0.1:7860`. */
    url: z.string().url(),
    steps: z.number().int().positive().optional(),
    negativePrompt: z.string().optional(),
    ...commonImageSettings,
  })
  .strict();

/** `imageGeneration` in settings.json; absent means generate_image is off (SPEC §4). */
export const imageGenerationSettingsSchema = z.discriminatedUnion("provider", [
  openAiImageSettingsSchema,
  sdWebUiSettingsSchema,
]);

export type ImageGenerationUserSettings = z.infer<typeof imageGenerationSettingsSchema>;

interface KeyEnvironment {
  /** Where the key is looked up; the process environment when absent. */
  env?: KeySources["env"];
}

export type OpenAiImageSettings = WithAllowances<z.infer<typeof openAiImageSettingsSchema>> & KeyEnvironment;

export type SdWebUiSettings = WithAllowances<z.infer<typeof sdWebUiSettingsSchema>> & KeyEnvironment;

/** What generate_image reads at each call. */
export type ImageGenerationSettings = OpenAiImageSettings | SdWebUiSettings;

export function imageGenerationSettingsFrom(
  user: ImageGenerationUserSettings | undefined,
  env: KeySources["env"],
): ImageGenerationSettings | undefined {
  if (user === undefined) return undefined;
  const { reach, ...rest } = user;
  return { ...rest, network: allowancesFor(reach), env };
}

export const imageGenerationDefaults = {
  openAiBaseUrl: "https://api.openai.com/v1",
  model: "gpt-image-1",
  size: "1024x1024",
  timeoutMs: 180_000,
  /** Largest answer accepted, in bytes; base64 images make answers large. */
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
