import path from "node:path";
import type { Grammar } from "./grammar.js";
import { goGrammar } from "./grammars/go.js";
import { javaGrammar } from "./grammars/java.js";
import { pythonGrammar } from "./grammars/python.js";
import { rustGrammar } from "./grammars/rust.js";
import { typescriptFamily } from "./grammars/typescript.js";

const typescript = typescriptFamily("tree-sitter-typescript/tree-sitter-typescript.wasm");
const tsx = typescriptFamily("tree-sitter-typescript/tree-sitter-tsx.wasm");
// The JavaScript grammar parses JSX too.
const javascript = typescriptFamily("tree-sitter-javascript/tree-sitter-javascript.wasm");

const byExtension: ReadonlyMap<string, Grammar> = new Map([
  [".ts", typescript],
  [".mts", typescript],
  [".cts", typescript],
  [".tsx", tsx],
  [".js", javascript],
  [".mjs", javascript],
  [".cjs", javascript],
  [".jsx", javascript],
  [".py", pythonGrammar],
  [".pyi", pythonGrammar],
  [".go", goGrammar],
  [".rs", rustGrammar],
  [".java", javaGrammar],
]);

/** The grammar for a file by its extension; undefined for languages without symbols. */
export function grammarForPath(filePath: string): Grammar | undefined {
  return byExtension.get(path.extname(filePath).toLowerCase());
}
