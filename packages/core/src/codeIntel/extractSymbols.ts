import { parseFile } from "./parsing/parseFile.js";
import { type SymbolInfo, symbolInfoOf } from "./symbolInfo.js";

/**
 * The symbols of a source file (module level, and members of classes, modules and the like) and
 * how often each identifier is used in it. Undefined when the language is not supported.
 */
export async function extractSymbols(
  path: string,
  source: string,
): Promise<{ symbols: SymbolInfo[]; references: Map<string, number> } | undefined> {
  const parsed = await parseFile(path, source);
  if (parsed === undefined) return undefined;
  return { symbols: parsed.symbols.map(symbolInfoOf), references: parsed.references };
}
