/** The share of the final score that comes from embeddings when both kinds are there. */
const semanticShare = 0.5;
/** Chunks considered from each side: the rest could not reach the top of a blend anyway. */
const candidatesPerSide = 100;

/**
 * BM25 and cosine scores on one scale: BM25 divided by the best BM25 score (so the best lexical
 * match counts 1), cosine as it is (negative similarity counts 0), mixed half and half over the
 * best candidates of each.
 */
export function blendScores(
  lexical: ReadonlyMap<number, number>,
  semantic: ReadonlyMap<number, number>,
): Map<number, number> {
  let bestLexical = 0;
  for (const score of lexical.values()) bestLexical = Math.max(bestLexical, score);
  const candidates = new Set([...top(lexical), ...top(semantic)]);
  const blended = new Map<number, number>();
  for (const id of candidates) {
    const lexicalPart = bestLexical > 0 ? (lexical.get(id) ?? 0) / bestLexical : 0;
    const semanticPart = Math.max(0, semantic.get(id) ?? 0);
    blended.set(id, (1 - semanticShare) * lexicalPart + semanticShare * semanticPart);
  }
  return blended;
}

function top(scores: ReadonlyMap<number, number>): number[] {
  return [...scores]
    .sort(([, a], [, b]) => b - a)
    .slice(0, candidatesPerSide)
    .map(([id]) => id);
}
