import type { Node } from "web-tree-sitter";
import type { Definition, Grammar, Visibility, VisibilityFacts } from "../grammar.js";
import { childText, namedChildrenOf, withBody, withExtras } from "../grammar.js";

export const javaGrammar: Grammar = {
  wasm: "tree-sitter-java/tree-sitter-java.wasm",
  wrappers: new Set(),
  // Annotations sit inside the declaration's modifiers, so they are in its range already.
  attachments: new Set(),
  define(node: Node): Definition | undefined {
    switch (node.type) {
      case "class_declaration":
        return withBody(node, "class", true);
      case "interface_declaration":
        return withBody(node, "interface", false);
      case "enum_declaration":
        return enumeration(node);
      case "record_declaration":
        return withBody(node, "record", true);
      case "annotation_type_declaration":
        return withBody(node, "annotation", false);
      case "method_declaration":
        return withBody(node, "method", false);
      case "constructor_declaration":
        return withBody(node, "constructor", false);
      default:
        return undefined;
    }
  },
  /** `private` stays in the file, `public` and `protected` reach everywhere, no modifier the package. */
  visibility({ outer }: VisibilityFacts): Visibility {
    const modifiers = childText(outer, "modifiers") ?? "";
    if (/\bprivate\b/.test(modifiers)) return "file";
    return /\b(public|protected)\b/.test(modifiers) ? "project" : "directory";
  },
};

/** An enum's methods come after its constants, in a node of their own inside the body. */
function enumeration(node: Node): Definition | undefined {
  const definition = withBody(node, "enum", false);
  const body = node.childForFieldName("body");
  if (definition === undefined || body === null) return definition;
  const members = namedChildrenOf(body).find((child) => child.type === "enum_body_declarations");
  return withExtras(definition, { members: members ?? null });
}
