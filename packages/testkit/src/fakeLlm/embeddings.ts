import { createHash } from "node:crypto";

/** Dimensions of the scripted vectors: enough for words to rarely collide in tests. */
const dimensions = 64;

/**
 * OpenAI's `/v1/embeddings` with deterministic vectors: each word of a text adds to the
 * dimension its hash picks, so texts sharing words point the same way. Not a model, but the real
 * wire format, so the embedding path is tested end to end.
 */
export function embeddingsResponse(body: Record<string, unknown>): Record<string, unknown> | undefined {
  const input = body.input;
  const texts = typeof input === "string" ? [input] : Array.isArray(input) ? input : undefined;
  if (!texts?.every((text) => typeof text === "string")) return undefined;
  return {
    object: "list",
    model: typeof body.model === "string" ? body.model : "scripted-embedding",
    data: texts.map((text, index) => ({ object: "embedding", index, embedding: vectorOf(text) })),
    usage: { prompt_tokens: texts.join(" ").length, total_tokens: texts.join(" ").length },
  };
}

export function vectorOf(text: string): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    vector[createHash("sha1").update(word).digest()[0]! % dimensions]! += 1;
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}
