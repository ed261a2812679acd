import type { Node } from "web-tree-sitter";

/** One declaration a grammar recognises. */
export interface Definition {
  /** function, method, class, interface, type, enum, struct, trait, impl, module, namespace… */
  kind: string;
  name: string;
  /** The node spelling the name, when it is the definition itself rather than a reference. */
  nameNode?: Node;
  /** Where the signature stops (the body's start); absent: the signature is the first line. */
  signatureEnd?: number;
  /** The node holding the members (class body, module body), searched for nested definitions. */
  members?: Node;
}

export interface DefinitionContext {
  /** Directly inside a class, struct, trait, impl…: functions there are methods. */
  inType: boolean;
}

/**
 * Where a symbol can be used from, by the language's own markers (`export`, `pub`, a capital
 * letter, `private`, a leading underscore): uses of its name elsewhere are other things' uses.
 */
export type Visibility = "file" | "directory" | "project";

/** What a grammar looks at to decide a symbol's visibility. */
export interface VisibilityFacts {
  definition: Definition;
  /** The symbol's range node: a wrapper around the definition (`export …`), or the definition. */
  outer: Node;
  /** The enclosing symbol's kind and signature; absent at module level. */
  parent?: { kind: string; signature: string };
  /** The node types found at the file's top level, for file-wide facts (does it use ES modules?). */
  topLevelTypes: ReadonlySet<string>;
}

/** What the symbol extractor needs to know about one language's syntax tree. */
export interface Grammar {
  /** The grammar's wasm file, as a module path ("tree-sitter-go/tree-sitter-go.wasm"). */
  wasm: string;
  /**
   * Nodes that only wrap definitions (`export`, decorators, a declaration of several names); their
   * children are searched, and a wrapper around exactly one definition becomes that definition's
   * range, so `export` and decorators belong to what they annotate.
   */
  wrappers: ReadonlySet<string>;
  /** Nodes placed just before a definition that belong to it, beside comments (decorators, attributes). */
  attachments: ReadonlySet<string>;
  define(node: Node, context: DefinitionContext): Definition | undefined;
  visibility(facts: VisibilityFacts): Visibility;
}

/** Kinds whose functions are methods. */
export const typeKinds: ReadonlySet<string> = new Set([
  "class",
  "interface",
  "struct",
  "trait",
  "impl",
  "enum",
  "record",
]);

/** The named children, without the nulls web-tree-sitter's typing allows for. */
export function namedChildrenOf(node: Node): Node[] {
  return node.namedChildren.filter((child): child is Node => child !== null);
}

/** A definition named by the node's `name` field; undefined when it has none (an anonymous class). */
export function named(
  node: Node,
  kind: string,
  extra: { members?: Node | null; signatureEnd?: number } = {},
): Definition | undefined {
  const nameNode = node.childForFieldName("name");
  if (nameNode === null) return undefined;
  return withExtras({ kind, name: nameNode.text, nameNode }, extra);
}

/** The signature runs up to the node's `body`, whose members are searched when `members` is set. */
export function withBody(node: Node, kind: string, searchMembers: boolean): Definition | undefined {
  const body = node.childForFieldName("body");
  return named(node, kind, {
    members: searchMembers ? body : null,
    signatureEnd: body?.startIndex,
  });
}

export function withExtras(
  definition: Definition,
  extra: { members?: Node | null; signatureEnd?: number },
): Definition {
  if (extra.members != null) definition.members = extra.members;
  if (extra.signatureEnd !== undefined) definition.signatureEnd = extra.signatureEnd;
  return definition;
}

/** Whether the node carries a child of this type (a `visibility_modifier`, `modifiers`…), and its text. */
export function childText(node: Node, type: string): string | undefined {
  return namedChildrenOf(node).find((child) => child.type === type)?.text;
}
