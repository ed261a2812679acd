import type { Node } from "web-tree-sitter";
import type { Definition, DefinitionContext, Grammar, Visibility, VisibilityFacts } from "../grammar.js";
import { withBody } from "../grammar.js";

export const pythonGrammar: Grammar = {
  wasm: "tree-sitter-python/tree-sitter-python.wasm",
  // The decorators live inside the wrapper, so the range takes them in.
  wrappers: new Set(["decorated_definition"]),
  attachments: new Set(),
  define(node: Node, context: DefinitionContext): Definition | undefined {
    if (node.type === "function_definition") {
      return withBody(node, context.inType ? "method" : "function", false);
    }
    if (node.type === "class_definition") return withBody(node, "class", true);
    return undefined;
  },
  /** A leading underscore marks a name private to its module (dunder methods are public). */
  visibility({ definition }: VisibilityFacts): Visibility {
    return /^_(?!_.*__$)/.test(definition.name) ? "file" : "project";
  },
};
