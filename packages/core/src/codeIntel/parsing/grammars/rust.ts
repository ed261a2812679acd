import type { Node } from "web-tree-sitter";
import type { Definition, DefinitionContext, Grammar, Visibility, VisibilityFacts } from "../grammar.js";
import { childText, named, withBody } from "../grammar.js";

export const rustGrammar: Grammar = {
  wasm: "tree-sitter-rust/tree-sitter-rust.wasm",
  wrappers: new Set(),
  attachments: new Set(["attribute_item"]),
  define(node: Node, context: DefinitionContext): Definition | undefined {
    const functionKind = context.inType ? "method" : "function";
    switch (node.type) {
      case "function_item":
        return withBody(node, functionKind, false);
      case "function_signature_item":
        return named(node, functionKind);
      case "struct_item":
        return withBody(node, "struct", false);
      case "enum_item":
        return withBody(node, "enum", false);
      case "union_item":
        return withBody(node, "union", false);
      case "trait_item":
        return withBody(node, "trait", true);
      case "mod_item":
        return withBody(node, "module", true);
      case "macro_definition":
        return named(node, "macro");
      case "type_item":
        return named(node, "type");
      case "impl_item":
        return implementation(node);
      default:
        return undefined;
    }
  },
  visibility,
};

/**
 * `pub` items are visible outside their module (the file); so are a trait's functions and those
 * of a trait's impl, whatever they say, and macros, which are exported by an attribute.
 */
function visibility({ definition, outer, parent }: VisibilityFacts): Visibility {
  if (definition.kind === "macro" || definition.kind === "impl") return "project";
  if (parent?.kind === "trait" || (parent?.kind === "impl" && / for /.test(parent.signature)))
    return "project";
  return childText(outer, "visibility_modifier") === undefined ? "file" : "project";
}

/**
 * `impl Trait for Type { … }` is named after its type. The name node is left out: it refers to the
 * type, which is defined elsewhere, and must count as a reference to it.
 */
function implementation(node: Node): Definition | undefined {
  const type = node.childForFieldName("type");
  const body = node.childForFieldName("body");
  if (type === null) return undefined;
  const base = type.childForFieldName("type") ?? type.childForFieldName("name") ?? type;
  const definition: Definition = { kind: "impl", name: base.text };
  if (body !== null) {
    definition.members = body;
    definition.signatureEnd = body.startIndex;
  }
  return definition;
}
