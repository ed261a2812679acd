import type { Node } from "web-tree-sitter";
import {
  childText,
  type Definition,
  type DefinitionContext,
  type Grammar,
  named,
  type Visibility,
  type VisibilityFacts,
  withBody,
  withExtras,
} from "../grammar.js";

/** Values that make a variable, field or assignment a function. */
const functionValues: ReadonlySet<string> = new Set([
  "arrow_function",
  "function_expression",
  "function",
  "generator_function",
]);

/**
 * TypeScript, TSX and JavaScript share one set of rules: the JavaScript grammar is the
 * TypeScript one without the type syntax, and nodes it lacks simply never occur.
 */
export function typescriptFamily(wasm: string): Grammar {
  return {
    wasm,
    wrappers: new Set([
      "export_statement",
      "ambient_declaration",
      "lexical_declaration",
      "variable_declaration",
      // Namespaces and CommonJS assignments (`exports.parse = function …`) sit in one.
      "expression_statement",
    ]),
    attachments: new Set(["decorator"]),
    define,
    visibility,
  };
}

/**
 * Module-level and namespace symbols are visible to other files when exported, and in files that
 * export nothing (CommonJS, scripts, whose exports this cannot follow) always; inside
 * `declare module` everything is. Members are, unless `private` or `#named`.
 */
function visibility({ definition, outer, parent, topLevelTypes }: VisibilityFacts): Visibility {
  if (parent !== undefined && parent.kind !== "namespace") {
    const isPrivate =
      definition.name.startsWith("#") || childText(outer, "accessibility_modifier") === "private";
    return isPrivate ? "file" : "project";
  }
  if (parent?.signature.startsWith("declare ")) return "project";
  if (outer.type === "export_statement" || outer.type === "ambient_declaration") return "project";
  // `exports.parse = function …`
  if (outer.type === "expression_statement" && definition.kind === "function") return "project";
  return topLevelTypes.has("export_statement") ? "file" : "project";
}

function define(node: Node, context: DefinitionContext): Definition | undefined {
  switch (node.type) {
    case "function_declaration":
    case "generator_function_declaration":
    case "function_signature":
      return withBody(node, context.inType ? "method" : "function", false);
    case "class_declaration":
    case "abstract_class_declaration":
    case "class":
      return withBody(node, "class", true);
    case "method_definition":
    case "method_signature":
    case "abstract_method_signature":
      return withBody(node, "method", false);
    case "public_field_definition":
    case "field_definition":
      return functionField(node);
    case "interface_declaration":
      return withBody(node, "interface", false);
    case "type_alias_declaration":
      return named(node, "type");
    case "enum_declaration":
      return withBody(node, "enum", false);
    case "internal_module":
    case "module":
      return namespace(node);
    case "variable_declarator":
      return variable(node);
    case "assignment_expression":
      return assignedFunction(node);
    default:
      return undefined;
  }
}

/** `handle = () => …` in a class body is a method; other fields are data, not symbols. */
function functionField(node: Node): Definition | undefined {
  const nameNode = node.childForFieldName("name") ?? node.childForFieldName("property");
  const value = node.childForFieldName("value");
  if (nameNode === null || value === null || !functionValues.has(value.type)) return undefined;
  return withExtras({ kind: "method", name: nameNode.text, nameNode }, signatureBeforeBodyOf(value));
}

/** `namespace ts { … }` and `declare module "x" { … }`, whose members are searched. */
function namespace(node: Node): Definition | undefined {
  const nameNode = node.childForFieldName("name");
  if (nameNode === null) return undefined;
  const body = node.childForFieldName("body");
  const name = nameNode.text.replace(/^["'`]|["'`]$/g, "");
  return withExtras({ kind: "namespace", name, nameNode }, { members: body, signatureEnd: body?.startIndex });
}

/**
 * A module-level `const`: a function or class when it holds one; any other value only when it is
 * exported, since a private `const schema = …` is a detail while an exported one is API.
 */
function variable(node: Node): Definition | undefined {
  const nameNode = node.childForFieldName("name");
  if (nameNode === null || nameNode.type !== "identifier") return undefined;
  const value = node.childForFieldName("value");
  const base = { name: nameNode.text, nameNode };
  if (value !== null && functionValues.has(value.type)) {
    return withExtras({ kind: "function", ...base }, signatureBeforeBodyOf(value));
  }
  if (value?.type === "class") {
    const body = value.childForFieldName("body");
    return withExtras({ kind: "class", ...base }, { members: body, ...signatureBefore(body) });
  }
  return isExported(node) ? { kind: "variable", ...base } : undefined;
}

/** declarator → `const …` declaration → `export` statement. */
function isExported(declarator: Node): boolean {
  return declarator.parent?.parent?.type === "export_statement";
}

/** `exports.parse = function (…) {…}` and `Parser.prototype.next = function …`. */
function assignedFunction(node: Node): Definition | undefined {
  const left = node.childForFieldName("left");
  const right = node.childForFieldName("right");
  if (left === null || right === null || !functionValues.has(right.type)) return undefined;
  const nameNode = left.type === "member_expression" ? left.childForFieldName("property") : left;
  if (nameNode === null || !/identifier$/.test(nameNode.type)) return undefined;
  return withExtras({ kind: "function", name: nameNode.text, nameNode }, signatureBeforeBodyOf(right));
}

function signatureBeforeBodyOf(value: Node): { signatureEnd?: number } {
  return signatureBefore(value.childForFieldName("body"));
}

function signatureBefore(body: Node | null): { signatureEnd?: number } {
  return body === null ? {} : { signatureEnd: body.startIndex };
}
