import type { CodeSearchHit } from "../../tools/toolServices.js";
import { type Embedder, embedChecked } from "../embedding/embedder.js";
import { cosine, unitVector } from "../embedding/vectors.js";
import type { IndexStore, StoredChunk } from "../indexing/indexStore.js";
import { blendScores } from "./blendScores.js";
import { bm25Scores } from "./bm25.js";
import { queryTerms } from "./queryTerms.js";
import { rerankFactor } from "./rerank.js";

/** Lines of a chunk handed back as its snippet; the caller shows fewer. */
const maxSnippetLines = 30;
/** The best-scored chunks looked at again with what the score cannot see (names, test files). */
const rerankPool = 200;

export interface ChunkQuery {
  query: string;
  limit: number;
  /** Only chunks of these files; absent: the whole project. */
  fileIds?: ReadonlySet<number>;
}

/**
 * The chunks that best answer `query`: BM25 over the chunks' terms (names weighted above body
 * text), blended with the cosine similarity of embeddings when an embedder is given and the
 * chunks have vectors from it, then reranked by whether the query names or describes a chunk's
 * own symbol and whether it is a test. When the query cannot be embedded, BM25 alone answers.
 */
export async function searchChunks(
  store: IndexStore,
  request: ChunkQuery,
  embedder: Embedder | undefined,
  signal: AbortSignal,
): Promise<CodeSearchHit[]> {
  const inScope = (fileId: number) => request.fileIds?.has(fileId) ?? true;
  const terms = queryTerms(request.query);
  const lexical = bm25Scores(
    terms.map(({ term, weight }) => ({
      postings: store.postings(term).filter((posting) => inScope(posting.fileId)),
      weight,
    })),
    store.chunkStats(),
  );
  const semantic =
    embedder === undefined ? undefined : await semanticScores(store, request, embedder, inScope);
  signal.throwIfAborted();
  const scores = semantic === undefined || semantic.size === 0 ? lexical : blendScores(lexical, semantic);

  const pool = best(scores, rerankPool);
  const facts = store.chunkFacts(pool.map(([id]) => id));
  const factor = rerankFactor(request.query, new Set(terms.map(({ term }) => term)));
  const reranked = pool.flatMap(([id, score]): [number, number][] => {
    const chunkFacts = facts.get(id);
    return chunkFacts === undefined ? [] : [[id, score * factor(chunkFacts)]];
  });
  return best(new Map(reranked), request.limit).flatMap(([id, score]) => {
    const chunk = store.chunk(id);
    return chunk === undefined ? [] : [hitOf(chunk, score)];
  });
}

/** The `count` highest scores, ties in index order. */
function best(scores: ReadonlyMap<number, number>, count: number): [number, number][] {
  return [...scores].sort(([idA, a], [idB, b]) => b - a || idA - idB).slice(0, count);
}

async function semanticScores(
  store: IndexStore,
  request: ChunkQuery,
  embedder: Embedder,
  inScope: (fileId: number) => boolean,
): Promise<Map<number, number> | undefined> {
  let query: Float32Array;
  try {
    query = unitVector((await embedChecked(embedder, [request.query]))[0] ?? []);
  } catch {
    // A model that is down or misconfigured costs the blend, not the search.
    return undefined;
  }
  const scores = new Map<number, number>();
  for (const { chunkId, fileId, vector } of store.vectors(embedder.model)) {
    if (inScope(fileId)) scores.set(chunkId, cosine(query, vector));
  }
  return scores;
}

function hitOf(chunk: StoredChunk, score: number): CodeSearchHit {
  const hit: CodeSearchHit = {
    path: chunk.path,
    startLine: chunk.startLine,
    endLine: chunk.endLine,
    score,
    snippet: chunk.text.split("\n").slice(0, maxSnippetLines).join("\n"),
  };
  if (chunk.symbol !== null) hit.symbol = chunk.symbol;
  if (chunk.kind !== null) hit.kind = chunk.kind;
  return hit;
}
