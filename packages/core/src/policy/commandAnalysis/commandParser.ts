import { createRequire } from "node:module";
import { Language, Parser, type Tree } from "web-tree-sitter";

/** A loaded bash parser: parsing is synchronous once the wasm modules are in memory. */
export interface CommandParser {
  parse(source: string): Tree;
}

let loading: Promise<CommandParser> | undefined;

/**
 * Loads web-tree-sitter and the bash grammar once per process; every caller shares the same
 * promise. A failed load is forgotten so that a later call can try again.
 */
export function loadCommandParser(): Promise<CommandParser> {
  if (loading === undefined) {
    loading = createParser().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
  }
  return loading;
}

async function createParser(): Promise<CommandParser> {
  // Only the grammar's wasm is used, so the package's optional native build never matters.
  const wasmPath = createRequire(import.meta.url).resolve("tree-sitter-bash/tree-sitter-bash.wasm");
  await Parser.init();
  const language = await Language.load(wasmPath);
  const parser = new Parser();
  parser.setLanguage(language);
  return {
    parse(source) {
      const tree = parser.parse(source);
      // parse() returns null only when no language is set or parsing was cancelled, neither of
      // which can happen here.
      if (tree === null) throw new Error("tree-sitter returned no tree");
      return tree;
    },
  };
}
