import type { Node } from "web-tree-sitter";
import type { SymbolInfo } from "../symbolInfo.js";
import {
  type Definition,
  type DefinitionContext,
  type Grammar,
  namedChildrenOf,
  typeKinds,
  type Visibility,
} from "./grammar.js";
import { grammarForPath } from "./languages.js";
import { countReferences } from "./references.js";
import { signatureOf } from "./signature.js";
import { parserFor, parseSource } from "./treeSitter.js";

export interface ParsedSymbol extends SymbolInfo {
  /** The first line of the comments, decorators and attributes just above it, which belong to it. */
  leadingLine: number;
  /** The enclosing symbol's index in the same list (a method's class). */
  parent?: number;
  /** Where its name can be used from: uses elsewhere are of something else. */
  visibility: Visibility;
}

export interface ParsedFile {
  /** In source order, each enclosing symbol before the ones it holds. */
  symbols: ParsedSymbol[];
  references: Map<string, number>;
}

/** Symbols and identifier counts of a source file; undefined when its language has no grammar here. */
export async function parseFile(filePath: string, source: string): Promise<ParsedFile | undefined> {
  const grammar = grammarForPath(filePath);
  if (grammar === undefined) return undefined;
  const tree = parseSource(await parserFor(grammar.wasm), source);
  try {
    const topLevelTypes = new Set(namedChildrenOf(tree.rootNode).map((child) => child.type));
    const walker = new DefinitionWalker(grammar, source, filePath.replaceAll("\\", "/"), topLevelTypes);
    walker.walk(tree.rootNode, { inType: false }, undefined);
    return { symbols: walker.symbols, references: countReferences(tree, walker.definitionNames) };
  } finally {
    tree.delete();
  }
}

interface Found {
  definition: Definition;
  /** The node whose range is the symbol's: a wrapper around exactly this one definition, or itself. */
  outer: Node;
}

/** Collects definitions at module level and inside the members of classes, modules and the like. */
class DefinitionWalker {
  readonly symbols: ParsedSymbol[] = [];
  readonly definitionNames = new Set<number>();

  constructor(
    private readonly grammar: Grammar,
    private readonly source: string,
    private readonly path: string,
    private readonly topLevelTypes: ReadonlySet<string>,
  ) {}

  walk(container: Node, context: DefinitionContext, parent: number | undefined): void {
    let previous: number | undefined;
    for (const child of namedChildrenOf(container)) {
      for (const { definition, outer } of this.find(child, context)) {
        if (definition.nameNode !== undefined) this.definitionNames.add(definition.nameNode.startIndex);
        const symbol = this.symbolOf(definition, outer, parent);
        const before = previous === undefined ? undefined : this.symbols[previous];
        // Overloads and declarations merged by the language, written one after another, are one symbol.
        if (before !== undefined && before.name === symbol.name && before.kind === symbol.kind) {
          before.endLine = symbol.endLine;
        } else {
          previous = this.symbols.push(symbol) - 1;
        }
        if (definition.members !== undefined && previous !== undefined) {
          this.walk(definition.members, { inType: typeKinds.has(definition.kind) }, previous);
        }
      }
    }
  }

  private symbolOf(definition: Definition, outer: Node, parent: number | undefined): ParsedSymbol {
    const enclosing = parent === undefined ? undefined : this.symbols[parent];
    return {
      name: definition.name,
      kind: definition.kind,
      path: this.path,
      startLine: outer.startPosition.row + 1,
      endLine: lastLine(outer),
      signature: signatureOf(this.source, outer.startIndex, definition.signatureEnd, outer.endIndex),
      leadingLine: this.leadingRow(outer) + 1,
      visibility: this.grammar.visibility({
        definition,
        outer,
        topLevelTypes: this.topLevelTypes,
        parent: enclosing,
      }),
      parent,
    };
  }

  /** The definitions in `node`: itself, or those inside it when it is a wrapper. */
  private find(node: Node, context: DefinitionContext): Found[] {
    if (!this.grammar.wrappers.has(node.type)) {
      const definition = this.grammar.define(node, context);
      return definition === undefined ? [] : [{ definition, outer: node }];
    }
    const found = namedChildrenOf(node).flatMap((child) => this.find(child, context));
    const only = found.length === 1 ? found[0] : undefined;
    return only === undefined ? found : [{ definition: only.definition, outer: node }];
  }

  /**
   * The first row of the comments and attachments right above `outer` with no blank line between.
   * A comment that ends a line of code belongs to that code, so it stops the climb.
   */
  private leadingRow(outer: Node): number {
    let row = outer.startPosition.row;
    let sibling = outer.previousNamedSibling;
    while (sibling !== null && this.attaches(sibling) && sibling.endPosition.row >= row - 1) {
      const before = sibling.previousSibling;
      if (before !== null && before.endPosition.row === sibling.startPosition.row) break;
      row = sibling.startPosition.row;
      sibling = sibling.previousNamedSibling;
    }
    return row;
  }

  private attaches(node: Node): boolean {
    return node.type.includes("comment") || this.grammar.attachments.has(node.type);
  }
}

/** A node that ends at the start of a line (a Rust line comment takes its newline) ends on the line before. */
function lastLine(node: Node): number {
  const { row, column } = node.endPosition;
  return column === 0 && row > node.startPosition.row ? row : row + 1;
}
