import { createRequire } from "node:module";
import { Language, Parser, type Tree } from "web-tree-sitter";

const require = createRequire(import.meta.url);

let runtime: Promise<void> | undefined;
const languages = new Map<string, Promise<Parser>>();

/**
 * A parser for one grammar, given by its wasm file in a grammar package
 * ("tree-sitter-go/tree-sitter-go.wasm"). The runtime is initialised once per process and each
 * grammar loaded once, on first use; a failed load is forgotten so that a later call can retry.
 */
export function parserFor(wasmModule: string): Promise<Parser> {
  let parser = languages.get(wasmModule);
  if (parser === undefined) {
    parser = loadParser(wasmModule).catch((error: unknown) => {
      languages.delete(wasmModule);
      throw error;
    });
    languages.set(wasmModule, parser);
  }
  return parser;
}

/** Parses `source`; the caller must `delete()` the tree, whose memory lives in the wasm heap. */
export function parseSource(parser: Parser, source: string): Tree {
  const tree = parser.parse(source);
  // null only when no language is set or parsing was cancelled, neither of which happens here.
  if (tree === null) throw new Error("tree-sitter returned no tree");
  return tree;
}

async function loadParser(wasmModule: string): Promise<Parser> {
  await initRuntime();
  // Only the grammar's wasm is used, so the package's optional native build never matters.
  const language = await Language.load(require.resolve(wasmModule));
  const parser = new Parser();
  parser.setLanguage(language);
  return parser;
}

function initRuntime(): Promise<void> {
  if (runtime === undefined) {
    runtime = Parser.init().catch((error: unknown) => {
      runtime = undefined;
      throw error;
    });
  }
  return runtime;
}
