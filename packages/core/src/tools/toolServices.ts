/**
 * What some tools need from capabilities that sit above the tool system (context, code
 * intelligence). The interfaces live here so tools never import those capabilities; the agent
 * hands the implementations in through the tool context.
 */

/** Rules the model may ask for by name with `fetch_rules` (SPEC §6: agent-requested rules). */
export interface RuleCatalog {
  /** The agent-requested rules: a name and the description the model chooses by. */
  requestable(): { name: string; description: string }[];
  /**
   * The named rules' text. Fetched rules stay attached for the rest of the session; unknown
   * names come back in `missing`.
   */
  fetch(names: readonly string[]): { rules: { name: string; content: string }[]; missing: string[] };
}

export interface CodeSearchHit {
  /** Relative to the project root, with forward slashes. */
  path: string;
  startLine: number;
  endLine: number;
  /** The symbol whose body the chunk is, when it is one. */
  symbol?: string;
  /** function, class, method, interface, type… as the grammar names it. */
  kind?: string;
  score: number;
  snippet: string;
}

/** The project's code index (SPEC §6), used by `codebase_search`. */
export interface CodeSearchIndex {
  search(
    query: string,
    options: { limit: number; paths?: readonly string[] },
    signal: AbortSignal,
  ): Promise<CodeSearchHit[]>;
}
