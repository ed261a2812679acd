import { readFileSync } from "node:fs";
import { z } from "zod";
import { assetUrl } from "../assetPath.js";

/** What Lathe knows about a model. Prices are US dollars per million tokens. */
export const modelInfoSchema = z.object({
  contextWindow: z.number().int().positive(),
  maxOutputTokens: z.number().int().positive(),
  inputPerMTok: z.number().nonnegative(),
  outputPerMTok: z.number().nonnegative(),
  cachedInputPerMTok: z.number().nonnegative(),
});
export type ModelInfo = z.infer<typeof modelInfoSchema>;

/** Catalog entries keyed by `provider:model`. */
export type ModelCatalog = ReadonlyMap<string, ModelInfo>;

export interface CatalogLookup extends ModelInfo {
  /** False when the model is not in the catalog and the conservative default stands in. */
  known: boolean;
}

/**
 * For models the catalog does not know: a window most current models exceed, so context
 * management compacts early rather than overflowing, and no price, since guessing one would
 * make cost reports look authoritative.
 */
export const unknownModelInfo: ModelInfo = {
  contextWindow: 128_000,
  maxOutputTokens: 8192,
  inputPerMTok: 0,
  outputPerMTok: 0,
  cachedInputPerMTok: 0,
};

let shipped: ModelCatalog | undefined;

/** The shape of `models.json`: its test holds the shipped file to it. */
export const shippedCatalogSchema = z.record(z.string(), modelInfoSchema);

/**
 * The catalog in `models.json` beside this file (copied next to the built code by the build).
 * Lathe's own file, not input: checked by its test rather than on every start, where zod took
 * 4–5 ms in front of the first request.
 */
export function shippedCatalog(): ModelCatalog {
  if (!shipped) {
    const text = readFileSync(assetUrl("llm/models.json"), "utf8");
    shipped = new Map(Object.entries(JSON.parse(text) as Record<string, ModelInfo>));
  }
  return shipped;
}

/**
 * The shipped catalog with extra entries laid over it. An entry for a known model may give only
 * the fields it changes; an entry for a new model fills the rest from the unknown-model default.
 */
export function catalogWith(
  extra: Record<string, Partial<ModelInfo>>,
  base: ModelCatalog = shippedCatalog(),
): ModelCatalog {
  const merged = new Map(base);
  for (const [id, entry] of Object.entries(extra)) {
    merged.set(id, modelInfoSchema.parse({ ...(base.get(id) ?? unknownModelInfo), ...entry }));
  }
  return merged;
}

/** Dated snapshots (`claude-sonnet-4-5-20250929`, `gpt-4o-2024-08-06`) share their family's entry. */
const dateSuffix = /-(\d{8}|\d{4}-\d{2}-\d{2})$/;

export function lookupModel(modelId: string, catalog: ModelCatalog = shippedCatalog()): CatalogLookup {
  const entry = catalog.get(modelId) ?? catalog.get(modelId.replace(dateSuffix, ""));
  return entry ? { ...entry, known: true } : { ...unknownModelInfo, known: false };
}

export interface TokenCounts {
  inputTokens: number;
  outputTokens: number;
  /** Part of inputTokens that was read from the provider's prompt cache. */
  cachedInputTokens: number;
}

/** Cost in US dollars; cached input is billed at the cached rate, the rest of the input at the full rate. */
export function costOf(
  modelId: string,
  usage: TokenCounts,
  catalog: ModelCatalog = shippedCatalog(),
): number {
  const info = lookupModel(modelId, catalog);
  const cached = Math.min(usage.cachedInputTokens, usage.inputTokens);
  const dollars =
    (usage.inputTokens - cached) * info.inputPerMTok +
    cached * info.cachedInputPerMTok +
    usage.outputTokens * info.outputPerMTok;
  return dollars / 1_000_000;
}
