import type { IndexedSymbol, SymbolInfo } from "../symbolInfo.js";
import { rankSymbols } from "./rankSymbols.js";

export interface RepoMapInput {
  /** Every symbol of the project, in path and line order. */
  symbols: readonly IndexedSymbol[];
  /** Each file's identifier counts, by path. */
  references: ReadonlyMap<string, Readonly<Record<string, number>>>;
  maxTokens: number;
  /** Files in the conversation's context: their symbols, and those they use, rank higher. */
  focusPaths?: readonly string[];
}

/** Tokens estimated from characters; the real tokenizer is applied by whoever budgets the prompt. */
const charsPerToken = 4;

/**
 * The repo map: the most referenced symbols that fit in `maxTokens`, grouped by file (files in
 * the order of their best symbol), each symbol as `line: signature`, members indented under the
 * symbol holding them when both are shown.
 */
export function renderRepoMap(input: RepoMapInput): string {
  const maxChars = input.maxTokens * charsPerToken;
  const ranked = rankSymbols(input.symbols, input.references, input.focusPaths ?? []);
  const chosen: SymbolInfo[] = [];
  const files = new Set<string>();
  let chars = 0;
  for (const symbol of ranked) {
    // Indentation is not known until the set is chosen; two levels are reserved for it.
    const cost = symbolLine(symbol, 2).length + 1 + (files.has(symbol.path) ? 0 : symbol.path.length + 2);
    if (chars + cost > maxChars) break;
    chosen.push(symbol);
    files.add(symbol.path);
    chars += cost;
  }
  let text = render(chosen);
  while (text.length > maxChars && chosen.length > 0) {
    chosen.pop();
    text = render(chosen);
  }
  return text;
}

/** `chosen` in rank order; files keep that order, symbols within a file go by line. */
function render(chosen: readonly SymbolInfo[]): string {
  const byFile = new Map<string, SymbolInfo[]>();
  for (const symbol of chosen) {
    const list = byFile.get(symbol.path) ?? [];
    list.push(symbol);
    byFile.set(symbol.path, list);
  }
  const blocks: string[] = [];
  for (const [path, symbols] of byFile) {
    symbols.sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
    const lines = symbols.map((symbol) => symbolLine(symbol, depthIn(symbols, symbol)));
    blocks.push([`${path}:`, ...lines].join("\n"));
  }
  return blocks.join("\n");
}

/** How many of the shown symbols of the same file contain this one. */
function depthIn(symbols: readonly SymbolInfo[], symbol: SymbolInfo): number {
  return symbols.filter(
    (other) =>
      other !== symbol &&
      other.startLine <= symbol.startLine &&
      other.endLine >= symbol.endLine &&
      (other.startLine < symbol.startLine || other.endLine > symbol.endLine),
  ).length;
}

function symbolLine(symbol: SymbolInfo, depth: number): string {
  return `${"  ".repeat(depth + 1)}${symbol.startLine}: ${symbol.signature}`;
}
