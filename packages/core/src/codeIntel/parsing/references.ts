import type { Tree } from "web-tree-sitter";

/**
 * How often each identifier occurs in the tree, leaving out the nodes that name a definition
 * (`definitionNames`, by start index): those are the symbols themselves, not uses of them. Every
 * grammar's identifier node types end in "identifier" (type_identifier, property_identifier…).
 */
export function countReferences(tree: Tree, definitionNames: ReadonlySet<number>): Map<string, number> {
  const counts = new Map<string, number>();
  const cursor = tree.walk();
  try {
    // A depth-first walk that looks at leaves only, on the way down.
    let descending = true;
    for (;;) {
      if (descending) {
        if (cursor.gotoFirstChild()) continue;
        if (cursor.nodeIsNamed && isReference(cursor.nodeType, cursor.startIndex, definitionNames)) {
          const name = cursor.nodeText;
          counts.set(name, (counts.get(name) ?? 0) + 1);
        }
      }
      if (cursor.gotoNextSibling()) {
        descending = true;
        continue;
      }
      if (!cursor.gotoParent()) break;
      descending = false;
    }
  } finally {
    cursor.delete();
  }
  return counts;
}

function isReference(type: string, startIndex: number, definitionNames: ReadonlySet<number>): boolean {
  return type.endsWith("identifier") && !definitionNames.has(startIndex);
}
