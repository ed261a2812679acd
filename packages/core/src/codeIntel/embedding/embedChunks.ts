import type { IndexStore } from "../indexing/indexStore.js";
import { type Embedder, embedChecked, embeddingBatchSize, embeddingText } from "./embedder.js";
import { unitVector } from "./vectors.js";

/**
 * Embeds every chunk of the project that has no vector from this model yet, batch by batch, each
 * batch stored as it comes, so an interrupted run keeps what it paid for.
 */
export async function embedMissingChunks(
  store: IndexStore,
  embedder: Embedder,
  signal?: AbortSignal,
): Promise<void> {
  const pending = store.chunksWithoutVector(embedder.model);
  for (let start = 0; start < pending.length && signal?.aborted !== true; start += embeddingBatchSize) {
    const batch = pending.slice(start, start + embeddingBatchSize);
    const vectors = await embedChecked(
      embedder,
      batch.map((chunk) => embeddingText(chunk.path, chunk.text)),
    );
    store.writeVectors(
      embedder.model,
      batch.map((chunk, index) => ({ chunkId: chunk.id, vector: unitVector(vectors[index] ?? []) })),
    );
  }
}
