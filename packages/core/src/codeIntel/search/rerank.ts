import { isTestPath } from "../testFiles.js";
import { nameParts, wholeName, wordsOf } from "./tokenize.js";

/** A chunk whose own name is a word of the query (`isAbortError`) counts this many times more. */
const exactNameBoost = 2;
/** A chunk whose name's parts all appear in the query counts up to 1 + this much more. */
const namePartsBoost = 0.5;
/** Tests repeat the words of the code they test; the code itself is what a search is usually for. */
const testFileFactor = 0.6;

const testWords = new Set(["test", "tests", "spec", "specs"]);

export interface RerankFacts {
  path: string;
  symbol: string | null;
}

/**
 * What the score misses about a chunk's identity: whether the query names the chunk's own symbol
 * or describes its name, and whether the chunk is a test (unless tests are asked for). Returns the
 * factor to multiply the chunk's score by.
 */
export function rerankFactor(query: string, queryTerms: ReadonlySet<string>): (facts: RerankFacts) => number {
  const words = wordsOf(query);
  const names = new Set(words.map(wholeName));
  const wantsTests = words.some((word) => testWords.has(word.toLowerCase()));
  return ({ path, symbol }) => {
    const testFactor = !wantsTests && isTestPath(path) ? testFileFactor : 1;
    if (symbol === null) return testFactor;
    if (names.has(wholeName(symbol))) return exactNameBoost * testFactor;
    const parts = new Set(nameParts(symbol));
    if (parts.size === 0) return testFactor;
    const covered = [...parts].filter((part) => queryTerms.has(part)).length;
    return (1 + (namePartsBoost * covered) / parts.size) * testFactor;
  };
}
