import type { ImageGenerationSettings, WebFetchSettings, WebSearchSettings } from "@lathe/core";
import { z } from "zod";

/** `"local"`: loopback and private addresses may be reached (a self-hosted SearXNG or WebUI). */
const reach = z.enum(["public", "local"]).optional();
const service = z.object({ apiKey: z.string().optional(), endpoint: z.string().url().optional() }).strict();

export const webSearchSettingsSchema = z
  .object({
    providers: z.array(z.enum(["searxng", "brave", "tavily", "google", "duckduckgo"])).optional(),
    searxngUrl: z.string().url().optional(),
    brave: service.optional(),
    tavily: service.optional(),
    google: service.extend({ cx: z.string().optional() }).optional(),
    duckduckgo: z.object({ endpoint: z.string().url().optional() }).strict().optional(),
    timeoutMs: z.number().int().positive().optional(),
    reach,
  })
  .strict();

export const webFetchSettingsSchema = z
  .object({
    maxBytes: z.number().int().positive().optional(),
    timeoutMs: z.number().int().positive().optional(),
    maxRedirects: z.number().int().nonnegative().optional(),
    maxChars: z.number().int().positive().optional(),
    reach,
  })
  .strict();

const imageCommon = { timeoutMs: z.number().int().positive().optional(), reach };
export const imageGenerationSettingsSchema = z.discriminatedUnion("provider", [
  z
    .object({
      provider: z.enum(["openai", "openai-compatible"]),
      baseUrl: z.string().url().optional(),
      model: z.string().optional(),
      ...imageCommon,
    })
    .strict(),
  z
    .object({
      provider: z.literal("sd-webui"),
      url: z.string().url(),
      steps: z.number().int().positive().optional(),
      negativePrompt: z.string().optional(),
      ...imageCommon,
    })
    .strict(),
]);

type Reach = z.infer<typeof reach>;

/** What `reach` means to the network guard. */
function allowances(value: Reach) {
  return value === "local" ? { network: { allowLoopback: true, allowPrivate: true } } : {};
}

export function webSearchSettings(
  settings: z.infer<typeof webSearchSettingsSchema> | undefined,
  env: Record<string, string | undefined>,
): WebSearchSettings {
  const { reach: where, ...rest } = settings ?? {};
  return { ...rest, ...allowances(where), env };
}

export function webFetchSettings(
  settings: z.infer<typeof webFetchSettingsSchema> | undefined,
): WebFetchSettings {
  const { reach: where, ...rest } = settings ?? {};
  return { ...rest, ...allowances(where) };
}

export function imageGenerationSettings(
  settings: z.infer<typeof imageGenerationSettingsSchema> | undefined,
  env: Record<string, string | undefined>,
): ImageGenerationSettings | undefined {
  if (!settings) return undefined;
  const { reach: where, ...rest } = settings;
  return { ...rest, ...allowances(where), env };
}
