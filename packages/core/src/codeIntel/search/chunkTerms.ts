import type { Chunk } from "../indexing/chunkFile.js";
import { tokenize } from "./tokenize.js";

/**
 * How much an occurrence counts by where it is (BM25F): a term in a declared name says far more
 * about what a chunk is than one in its body, and the file's path a little more.
 */
const nameWeight = 4;
const pathWeight = 1.5;

/**
 * A chunk's weighted term frequencies and weighted length: its text, the names it declares and
 * its file's path, each counted with its field's weight.
 */
export function chunkTerms(chunk: Chunk, filePath: string): { terms: Map<string, number>; length: number } {
  const terms = new Map<string, number>();
  let length = 0;
  const add = (text: string, weight: number) => {
    for (const term of tokenize(text)) {
      terms.set(term, (terms.get(term) ?? 0) + weight);
      length += weight;
    }
  };
  add(chunk.text, 1);
  add(chunk.names.join(" "), nameWeight);
  add(filePath, pathWeight);
  return { terms, length };
}
