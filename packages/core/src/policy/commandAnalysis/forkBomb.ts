import type { Node } from "web-tree-sitter";

/**
 * Recognises fork bombs by shape, whatever the function is called: a function that calls itself
 * at least twice with the calls piped together or sent to the background (`:(){ :|:& };:`,
 * `bomb(){ bomb | bomb & }`), or that starts itself in the background inside a loop.
 */
export function isForkBomb(definition: Node): boolean {
  const name = definition.childForFieldName("name")?.text;
  const body = definition.childForFieldName("body");
  if (name === undefined || body === null) return false;
  const calls: Node[] = [];
  collectSelfCalls(body, name, calls);
  if (calls.length === 0) return false;
  const background = hasBackground(body);
  if (calls.length >= 2 && (background || calls.some((call) => call.parent?.type === "pipeline")))
    return true;
  return background && calls.some(insideLoop);
}

function collectSelfCalls(node: Node, name: string, calls: Node[]): void {
  if (node.type === "function_definition") return;
  if (node.type === "command" && unquote(node.childForFieldName("name")?.text ?? "") === name)
    calls.push(node);
  for (const child of node.namedChildren) if (child) collectSelfCalls(child, name, calls);
}

function hasBackground(node: Node): boolean {
  for (const child of node.children) {
    if (!child) continue;
    if (!child.isNamed && child.type === "&") return true;
    if (child.isNamed && hasBackground(child)) return true;
  }
  return false;
}

function insideLoop(node: Node): boolean {
  for (let up = node.parent; up !== null; up = up.parent) {
    if (up.type === "while_statement" || up.type === "for_statement" || up.type === "c_style_for_statement")
      return true;
    if (up.type === "function_definition") return false;
  }
  return false;
}

/** Enough quote removal to see `b''omb` or `\bomb` as `bomb`. */
function unquote(text: string): string {
  return text.replace(/\\(.)/g, "$1").replace(/['"]/g, "");
}
