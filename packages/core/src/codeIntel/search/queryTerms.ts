import { tokenize } from "./tokenize.js";

/**
 * Abbreviations code uses for words people type, both ways: a query saying "regular expression"
 * also looks for `regex`, one saying `cfg` also for "config".
 */
const abbreviationWords: readonly (readonly [string, string])[] = [
  ["regular expression", "regex"],
  ["configuration", "config"],
  ["config", "cfg"],
  ["environment", "env"],
  ["authentication", "auth"],
  ["authorization", "auth"],
  ["initialize", "init"],
  ["parameter", "param"],
  ["argument", "arg"],
  ["number", "num"],
  ["object", "obj"],
  ["error", "err"],
  ["message", "msg"],
  ["request", "req"],
  ["context", "ctx"],
  ["directory", "dir"],
  ["length", "len"],
  ["utility", "util"],
  ["database", "db"],
  ["implementation", "impl"],
  ["identifier", "id"],
];

/** The pairs as the tokenizer spells them (lowercase, stemmed), to compare with query terms. */
const abbreviations = abbreviationWords.map(([long, short]) => [termsOf(long), termsOf(short)] as const);

/** Expansions count less than the words the user wrote. */
const expansionWeight = 0.5;

export interface QueryTerm {
  term: string;
  weight: number;
}

/** The query's distinct terms, and the abbreviations or full words they stand for. */
export function queryTerms(query: string): QueryTerm[] {
  const written = tokenize(query);
  const weights = new Map(written.map((term) => [term, 1]));
  const text = ` ${written.join(" ")} `;
  for (const [long, short] of abbreviations) {
    for (const [from, to] of [
      [long, short],
      [short, long],
    ] as const) {
      if (!text.includes(` ${from} `)) continue;
      for (const term of to.split(" ")) if (!weights.has(term)) weights.set(term, expansionWeight);
    }
  }
  return [...weights].map(([term, weight]) => ({ term, weight }));
}

function termsOf(words: string): string {
  return tokenize(words).join(" ");
}
