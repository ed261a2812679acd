/** BM25's usual constants: how fast repeats stop counting, and how much length is normalised. */
const k1 = 1.2;
const b = 0.75;

export interface TermPostings {
  postings: readonly { chunkId: number; tf: number; length: number }[];
  /** How much the term counts in the query: 1, less for the secondary forms of a word. */
  weight: number;
}

/**
 * BM25 scores of every chunk holding a query term. `count` and `averageLength` describe all the
 * project's chunks; a term's rarity is judged across the whole project even when the search is
 * limited to some paths.
 */
export function bm25Scores(
  terms: readonly TermPostings[],
  stats: { count: number; averageLength: number },
): Map<number, number> {
  const scores = new Map<number, number>();
  const averageLength = stats.averageLength > 0 ? stats.averageLength : 1;
  for (const { postings, weight } of terms) {
    const documentFrequency = postings.length;
    if (documentFrequency === 0) continue;
    const idf = Math.log(1 + (stats.count - documentFrequency + 0.5) / (documentFrequency + 0.5));
    for (const { chunkId, tf, length } of postings) {
      const saturation = (tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * length) / averageLength));
      scores.set(chunkId, (scores.get(chunkId) ?? 0) + weight * idf * saturation);
    }
  }
  return scores;
}
