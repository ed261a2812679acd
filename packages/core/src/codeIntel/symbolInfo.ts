import type { Visibility } from "./parsing/grammar.js";

/** A declaration found in a source file. */
export interface SymbolInfo {
  name: string;
  /** function, class, method, interface, type, enum, struct, trait, impl, module, namespace, variable… */
  kind: string;
  /** Relative to the project root, with forward slashes. */
  path: string;
  /** 1-based, inclusive; from the declaration's first line (its `export`, decorators) to its last. */
  startLine: number;
  endLine: number;
  /** The declaration's head on one line, cut to about 160 characters. */
  signature: string;
}

/** A symbol as the index keeps it: with where its name can be used from, for ranking uses. */
export interface IndexedSymbol extends SymbolInfo {
  visibility: Visibility;
}

/** Just the fields of a SymbolInfo, from a richer record that extends it. */
export function symbolInfoOf({ name, kind, path, startLine, endLine, signature }: SymbolInfo): SymbolInfo {
  return { name, kind, path, startLine, endLine, signature };
}
