import type { IndexedSymbol } from "../symbolInfo.js";
import { isTestPath } from "../testFiles.js";
import { UseCounts } from "./useCounts.js";

/** How much more a symbol of a file in focus counts. */
const focusFileBoost = 10;
/** How much more a symbol used by a file in focus counts. */
const usedByFocusBoost = 3;
/**
 * Members count half: their names are common words (`value`, `length`, `get`) whose counted uses
 * include every local variable and property of that name, while module-level names are distinctive.
 */
const memberFactor = 0.5;
const memberKinds: ReadonlySet<string> = new Set(["method", "constructor"]);
/** Tests are not the project's API; their helpers rank well below it. */
const testFactor = 0.3;

/**
 * Symbols from most to least important. A symbol's weight is how often its name is used where
 * the symbol is visible (a private helper gets the uses in its own file only), shared among the
 * project-visible symbols of that name (ten public `get` methods split the uses of `get` rather
 * than each claiming them all); one is added so that focus boosts unused symbols too. A
 * one-letter name gets no uses: they cannot be told from type parameters and loop variables.
 * Ties keep path and line order.
 */
export function rankSymbols(
  symbols: readonly IndexedSymbol[],
  references: ReadonlyMap<string, Readonly<Record<string, number>>>,
  focusPaths: readonly string[],
): IndexedSymbol[] {
  const uses = new UseCounts(references);
  const focus = new Set(focusPaths);
  const publicDefinitions = new Map<string, number>();
  for (const { name, visibility } of symbols) {
    if (visibility === "project") publicDefinitions.set(name, (publicDefinitions.get(name) ?? 0) + 1);
  }

  const weight = (symbol: IndexedSymbol) => {
    const counted = symbol.name.length > 1 ? uses.of(symbol.name, symbol.path, symbol.visibility) : 0;
    const sharedBy = symbol.visibility === "project" ? (publicDefinitions.get(symbol.name) ?? 1) : 1;
    const inFocus = focus.has(symbol.path) ? focusFileBoost : 1;
    const usedByFocus = uses.within(symbol.name, focusPaths) > 0 ? usedByFocusBoost : 1;
    const member = memberKinds.has(symbol.kind) ? memberFactor : 1;
    const test = isTestPath(symbol.path) ? testFactor : 1;
    return ((counted + 1) / sharedBy) * inFocus * usedByFocus * member * test;
  };
  return symbols
    .map((symbol, order) => ({ symbol, order, weight: weight(symbol) }))
    .sort((a, b) => b.weight - a.weight || a.order - b.order)
    .map(({ symbol }) => symbol);
}
