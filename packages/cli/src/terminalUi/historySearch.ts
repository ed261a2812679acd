/**
 * Ctrl+R, as in bash: the typed text finds the newest earlier input that contains it (ignoring
 * case), Ctrl+R again an older one. `match` indexes the history (oldest first); a query that finds
 * nothing more keeps the last match shown and is marked failed.
 */
export interface HistorySearch {
  readonly query: string;
  readonly match?: number;
  readonly failed: boolean;
}

export const newSearch: HistorySearch = { query: "", failed: false };

/** The query grown by what was typed: the match shown stays if it still fits, else an older one. */
export function searchTyped(search: HistorySearch, typed: string, history: readonly string[]): HistorySearch {
  const query = search.query + typed;
  const found = findOlder(history, query, search.match ?? history.length - 1);
  return found === undefined ? { ...search, query, failed: true } : { query, match: found, failed: false };
}

/** Ctrl+R again: the next older input with the query that differs from the one shown. */
export function searchOlder(search: HistorySearch, history: readonly string[]): HistorySearch {
  if (search.query === "" || search.match === undefined) return search;
  const shown = history[search.match];
  let from = search.match - 1;
  for (;;) {
    const found = findOlder(history, search.query, from);
    if (found === undefined) return { ...search, failed: true };
    if (history[found] !== shown) return { ...search, match: found, failed: false };
    from = found - 1;
  }
}

/** Backspace: the query one character shorter, its match searched again from the one shown. */
export function searchErased(search: HistorySearch, history: readonly string[]): HistorySearch {
  const query = [...search.query].slice(0, -1).join("");
  if (query === "") return newSearch;
  const found =
    findOlder(history, query, search.match ?? history.length - 1) ??
    findOlder(history, query, history.length - 1);
  return found === undefined ? { query, failed: true } : { query, match: found, failed: false };
}

/** The input the search shows, if any. */
export function searchMatch(search: HistorySearch, history: readonly string[]): string | undefined {
  return search.match === undefined ? undefined : history[search.match];
}

/** The line the input area shows during the search, as bash words it. */
export function searchPrompt(search: HistorySearch, history: readonly string[]): string {
  const label = search.failed ? "failed reverse-i-search" : "reverse-i-search";
  return `(${label})\`${search.query}': ${searchMatch(search, history) ?? ""}`;
}

function findOlder(history: readonly string[], query: string, from: number): number | undefined {
  const wanted = query.toLowerCase();
  for (let index = Math.min(from, history.length - 1); index >= 0; index--) {
    if ((history[index] ?? "").toLowerCase().includes(wanted)) return index;
  }
  return undefined;
}
