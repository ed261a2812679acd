/** Turns texts into vectors, one per text, in order. */
export type EmbedFunction = (texts: string[]) => Promise<number[][]>;

export interface Embedder {
  embed: EmbedFunction;
  /** Names the model: vectors of another model are recomputed, never compared. */
  model: string;
}

/** Texts sent to the model at once. */
export const embeddingBatchSize = 64;
/** Embedding models take a bounded input; the head of a chunk says what it is. */
const maxEmbeddedChars = 4000;

export function embeddingText(path: string, text: string): string {
  return `${path}\n${text.slice(0, maxEmbeddedChars)}`;
}

/** The model's answer, checked: one finite vector per text, all of one size. */
export async function embedChecked(embedder: Embedder, texts: string[]): Promise<number[][]> {
  const vectors = await embedder.embed(texts);
  const size = vectors[0]?.length ?? 0;
  const valid =
    vectors.length === texts.length &&
    size > 0 &&
    vectors.every((vector) => vector.length === size && vector.every(Number.isFinite));
  if (!valid)
    throw new Error(`the embedding model returned ${vectors.length} vectors for ${texts.length} texts`);
  return vectors;
}
