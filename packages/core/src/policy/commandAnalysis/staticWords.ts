import type { Node } from "web-tree-sitter";
import { expandBraces } from "./braceExpansion.js";

/** A shell word as far as it can be known without running anything. */
export interface StaticWord {
  /** The word after quote removal, escapes and known variables; unknown parts keep their source. */
  value: string;
  /** Part of the word comes from an expansion or substitution whose value is unknown. */
  dynamic: boolean;
  /** Part of the word comes from a substitution whose commands download from the network. */
  fromDownload: boolean;
}

/** What word evaluation needs from the walk around it. */
export interface WordScope {
  /** The static value of a shell variable, or undefined when it is not known. */
  variable(name: string): string | undefined;
  /**
   * Judges the commands inside a `$(…)`, backtick or `<(…)`/`>(…)` substitution; returns whether
   * they download from the network (so `bash <(curl …)` can be recognised).
   */
  substitution(node: Node): boolean;
}

interface Builder {
  chars: string[];
  /** Per character: it was unquoted and unescaped, so braces and commas in it are syntax. */
  active: boolean[];
  dynamic: boolean;
  fromDownload: boolean;
}

/** Evaluates one argument node; brace expansion may turn it into several words. */
export function evaluateWords(node: Node, scope: WordScope): StaticWord[] {
  const b: Builder = { chars: [], active: [], dynamic: false, fromDownload: false };
  collect(node, scope, b);
  const text = b.chars.join("");
  const values = b.active.some(Boolean) ? expandBraces(text, b.active) : [text];
  return values.map((value) => ({ value, dynamic: b.dynamic, fromDownload: b.fromDownload }));
}

/** Evaluates a node that bash never splits or brace-expands (a redirect target, an assignment). */
export function evaluateWord(node: Node, scope: WordScope): StaticWord {
  const b: Builder = { chars: [], active: [], dynamic: false, fromDownload: false };
  collect(node, scope, b);
  return { value: b.chars.join(""), dynamic: b.dynamic, fromDownload: b.fromDownload };
}

function push(b: Builder, text: string, active: boolean): void {
  for (const c of text) {
    b.chars.push(c);
    b.active.push(active);
  }
}

function collect(node: Node, scope: WordScope, b: Builder): void {
  switch (node.type) {
    case "word":
      pushUnquoted(b, node.text);
      return;
    case "raw_string":
      push(b, node.text.slice(1, -1), false);
      return;
    case "ansi_c_string":
      push(b, decodeAnsiC(node.text.slice(2, -1)), false);
      return;
    case "string":
    case "translated_string":
      for (const child of node.namedChildren) if (child) collectQuoted(child, scope, b);
      return;
    case "concatenation":
      for (const child of node.namedChildren) if (child) collect(child, scope, b);
      return;
    case "number":
      if (node.namedChildCount === 0) push(b, node.text, true);
      else dynamicPart(node, scope, b);
      return;
    case "brace_expression":
      push(b, node.text, false);
      return;
    case "simple_expansion":
    case "expansion":
      pushExpansion(node, scope, b);
      return;
    case "command_substitution":
    case "process_substitution":
      if (scope.substitution(node)) b.fromDownload = true;
      b.dynamic = true;
      push(b, node.text, false);
      return;
    default:
      dynamicPart(node, scope, b);
  }
}

/** Inside double quotes only `$`, backquote, `"`, `\` and newline can be escaped. */
function collectQuoted(node: Node, scope: WordScope, b: Builder): void {
  if (node.type !== "string_content") {
    collect(node, scope, b);
    return;
  }
  const text = node.text;
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const next = text[i + 1];
    if (c === "\\" && next !== undefined && '$`"\\\n'.includes(next)) {
      if (next !== "\n") out += next;
      i++;
    } else out += c;
  }
  push(b, out, false);
}

function pushUnquoted(b: Builder, text: string): void {
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? "";
    if (c === "\\") {
      const next = text[i + 1];
      i++;
      if (next !== undefined && next !== "\n") push(b, next, false);
    } else push(b, c, true);
  }
}

function pushExpansion(node: Node, scope: WordScope, b: Builder): void {
  const name = plainVariableName(node);
  const value = name === undefined ? undefined : scope.variable(name);
  if (value === undefined) {
    dynamicPart(node, scope, b);
    return;
  }
  push(b, value, false);
}

/** `$NAME` or `${NAME}` with nothing else (no default, no substring, no length). */
function plainVariableName(node: Node): string | undefined {
  const named = node.namedChildren;
  const only = named[0];
  if (named.length !== 1 || !only || only.type !== "variable_name") return undefined;
  const tokens = node.type === "expansion" ? 3 : 2;
  return node.childCount === tokens ? only.text : undefined;
}

/** A part whose value is unknown; any substitution inside it is still judged. */
function dynamicPart(node: Node, scope: WordScope, b: Builder): void {
  b.dynamic = true;
  if (visitSubstitutions(node, scope)) b.fromDownload = true;
  push(b, node.text, false);
}

/** Judges every substitution below `node` (in `${X:-$(cmd)}`, `$(( $(cmd) + 1 ))`, tests…). */
export function visitSubstitutions(node: Node, scope: WordScope): boolean {
  let downloads = false;
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (child.type === "command_substitution" || child.type === "process_substitution") {
      if (scope.substitution(child)) downloads = true;
    } else if (visitSubstitutions(child, scope)) downloads = true;
  }
  return downloads;
}

const simpleEscapes: Record<string, string> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/** Decodes the body of a `$'…'` string the way bash does. */
export function decodeAnsiC(body: string): string {
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i] ?? "";
    if (c !== "\\" || i + 1 >= body.length) {
      out += c;
      continue;
    }
    const e = body[i + 1] ?? "";
    const simple = simpleEscapes[e];
    if (simple !== undefined) {
      out += simple;
      i++;
      continue;
    }
    const numeric = decodeNumericEscape(body, i + 1);
    if (numeric) {
      out += numeric.text;
      i = numeric.end - 1;
      continue;
    }
    if (e === "c" && i + 2 < body.length) {
      out += String.fromCharCode((body.charCodeAt(i + 2) ?? 0) & 0x1f);
      i += 2;
      continue;
    }
    out += c + e;
    i++;
  }
  return out;
}

/** `\NNN` octal, `\xHH`, `\uHHHH`, `\UHHHHHHHH`, starting at the character after the backslash. */
function decodeNumericEscape(body: string, at: number): { text: string; end: number } | undefined {
  const kind = body[at];
  const forms: Record<string, { pattern: RegExp; radix: number; skip: number }> = {
    x: { pattern: /^[0-9a-fA-F]{1,2}/, radix: 16, skip: 1 },
    u: { pattern: /^[0-9a-fA-F]{1,4}/, radix: 16, skip: 1 },
    U: { pattern: /^[0-9a-fA-F]{1,8}/, radix: 16, skip: 1 },
  };
  const form = kind === undefined ? undefined : (forms[kind] ?? undefined);
  if (form) {
    const digits = form.pattern.exec(body.slice(at + form.skip))?.[0];
    if (!digits) return undefined;
    const code = Number.parseInt(digits, form.radix);
    return { text: safeFromCodePoint(code), end: at + form.skip + digits.length };
  }
  const octal = /^[0-7]{1,3}/.exec(body.slice(at))?.[0];
  if (!octal) return undefined;
  return { text: String.fromCharCode(Number.parseInt(octal, 8) & 0xff), end: at + octal.length };
}

function safeFromCodePoint(code: number): string {
  return code <= 0x10ffff ? String.fromCodePoint(code) : "";
}
