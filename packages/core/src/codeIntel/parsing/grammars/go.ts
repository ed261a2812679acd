import type { Node } from "web-tree-sitter";
import type { Definition, Grammar, Visibility, VisibilityFacts } from "../grammar.js";
import { named, withBody } from "../grammar.js";

export const goGrammar: Grammar = {
  wasm: "tree-sitter-go/tree-sitter-go.wasm",
  // `type ( A int; B string )` declares several types in one.
  wrappers: new Set(["type_declaration"]),
  attachments: new Set(),
  define(node: Node): Definition | undefined {
    switch (node.type) {
      case "function_declaration":
        return withBody(node, "function", false);
      case "method_declaration":
        return withBody(node, "method", false);
      case "type_spec":
        return named(node, typeKind(node.childForFieldName("type")));
      case "type_alias":
        return named(node, "type");
      default:
        return undefined;
    }
  },
  /** Capitalised names are exported; the others belong to the package, which is the directory. */
  visibility({ definition }: VisibilityFacts): Visibility {
    return /^\p{Lu}/u.test(definition.name) ? "project" : "directory";
  },
};

function typeKind(type: Node | null): string {
  if (type?.type === "struct_type") return "struct";
  if (type?.type === "interface_type") return "interface";
  return "type";
}
