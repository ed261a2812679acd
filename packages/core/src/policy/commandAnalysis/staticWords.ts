import type { Node } from "web-tree-sitter";
import { decodeAnsiC } from "../rules/shellText.js";
import { expandBraces } from "./braceExpansion.js";
import type { StageOutput } from "./stageOutput.js";

/** A shell word as far as it can be known without running anything. */
export interface StaticWord {
  /** The word after quote removal, escapes and known variables; unknown parts keep their source. */
  value: string;
  /** Part of the word comes from an expansion or substitution whose value is unknown. */
  dynamic: boolean;
  /** Part of the word comes from a substitution whose commands download from the network. */
  fromDownload: boolean;
  /** The word is a process substitution (`<(…)`): what its commands write, as far as known. */
  produced?: StageOutput;
}

/** What word evaluation needs from the walk around it. */
export interface WordScope {
  /** The static value of a shell variable, or undefined when it is not known. */
  variable(name: string): string | undefined;
  /**
   * Judges the commands inside a `$(…)`, backtick or `<(…)`/`>(…)` substitution; returns what they
   * write (so `bash <(curl …)` and `bash <(echo …)` can be recognised).
   */
  substitution(node: Node): StageOutput;
  /** Judges text bash evaluates as arithmetic (`$(( … ))`, an array subscript). */
  arithmetic(text: string): void;
  /** Judges `${name@P}`: the variable's value is expanded like a prompt, running what it holds. */
  prompt(name: string): void;
  /** Judges `${!name}`: the variable's value is read as a variable name, subscript included. */
  indirection(name: string): void;
}

interface Builder {
  chars: string[];
  /** Per character: it was unquoted and unescaped, so braces and commas in it are syntax. */
  active: boolean[];
  /** Per character: it came from an unquoted expansion, so bash splits the word at it (IFS). */
  splits: boolean[];
  /** Collecting inside double quotes, where expansions are not split. */
  quoted: boolean;
  dynamic: boolean;
  fromDownload: boolean;
  /** Set when the whole word is one process substitution. */
  produced?: StageOutput;
}

/** Evaluates one argument node; brace expansion may turn it into several words. */
export function evaluateWords(node: Node, scope: WordScope): StaticWord[] {
  const b = newBuilder();
  collect(node, scope, b);
  if (b.produced && node.type === "process_substitution")
    return [{ value: b.chars.join(""), dynamic: true, fromDownload: b.fromDownload, produced: b.produced }];
  // An unquoted expansion that is empty is no word at all (`e=; ls $e x` runs `ls x`).
  if (b.chars.length === 0 && (node.type === "simple_expansion" || node.type === "expansion")) return [];
  const values = splitFields(b, scope.variable("IFS") ?? defaultIfs).flatMap((field) =>
    field.active.some(Boolean) ? expandBraces(field.text, field.active) : [field.text],
  );
  return values.map((value) => ({ value, dynamic: b.dynamic, fromDownload: b.fromDownload }));
}

const defaultIfs = " \t\n";

/**
 * Field splitting: the value of an unquoted `$x` is cut at IFS characters, so `x='rm -rf /'; $x`
 * runs `rm` with two arguments. IFS whitespace runs make one break and never an empty field;
 * other IFS characters each end a field. A word that splits into nothing is dropped, as in bash.
 */
function splitFields(b: Builder, ifs: string): { text: string; active: boolean[] }[] {
  if (!b.splits.some(Boolean)) return [{ text: b.chars.join(""), active: b.active }];
  const fields: { text: string; active: boolean[] }[] = [];
  let text = "";
  let active: boolean[] = [];
  for (let i = 0; i < b.chars.length; i++) {
    const c = b.chars[i] ?? "";
    if (b.splits[i] && ifs.includes(c)) {
      if (text !== "" || !/\s/.test(c)) fields.push({ text, active });
      text = "";
      active = [];
      continue;
    }
    text += c;
    active.push(b.active[i] ?? false);
  }
  if (text !== "") fields.push({ text, active });
  return fields;
}

function newBuilder(): Builder {
  return { chars: [], active: [], splits: [], quoted: false, dynamic: false, fromDownload: false };
}

/** Evaluates a node that bash never splits or brace-expands (a redirect target, an assignment). */
export function evaluateWord(node: Node, scope: WordScope): StaticWord {
  const b = newBuilder();
  collect(node, scope, b);
  const word: StaticWord = { value: b.chars.join(""), dynamic: b.dynamic, fromDownload: b.fromDownload };
  if (b.produced && node.type === "process_substitution") word.produced = b.produced;
  return word;
}

function push(b: Builder, text: string, active: boolean, splits = false): void {
  for (const c of text) {
    b.chars.push(c);
    b.active.push(active);
    b.splits.push(splits);
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
    case "process_substitution": {
      const output = scope.substitution(node);
      if (output.downloads) b.fromDownload = true;
      if (node.type === "process_substitution") b.produced = output;
      b.dynamic = true;
      push(b, node.text, false);
      return;
    }
    case "arithmetic_expansion":
      scope.arithmetic(node.text.replace(/^\$(\(\(|\[)/, "").replace(/(\)\)|\])$/, ""));
      dynamicPart(node, scope, b);
      return;
    default:
      dynamicPart(node, scope, b);
  }
}

/** Inside double quotes only `$`, backquote, `"`, `\` and newline can be escaped. */
function collectQuoted(node: Node, scope: WordScope, b: Builder): void {
  if (node.type !== "string_content") {
    const outside = b.quoted;
    b.quoted = true;
    collect(node, scope, b);
    b.quoted = outside;
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
  const subscript = node.namedChildren.find((c) => c?.type === "subscript");
  const index = subscript?.childForFieldName("index");
  if (index) scope.arithmetic(index.text);
  const indirect = /^\$\{!([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(node.text)?.[1];
  if (indirect !== undefined) scope.indirection(indirect);
  if (/@P\}$/.test(node.text)) {
    const variable = (subscript ?? node).namedChildren.find((c) => c?.type === "variable_name");
    scope.prompt(variable?.text ?? "");
  }
  const name = plainVariableName(node);
  const value = name === undefined ? undefined : scope.variable(name);
  if (value === undefined) {
    dynamicPart(node, scope, b);
    return;
  }
  push(b, value, false, !b.quoted);
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
      if (scope.substitution(child).downloads) downloads = true;
    } else if (visitSubstitutions(child, scope)) downloads = true;
  }
  return downloads;
}
