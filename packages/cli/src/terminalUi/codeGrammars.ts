/** What a piece of code is, as far as its colour goes. */
export type TokenKind = "keyword" | "string" | "comment" | "number" | "plain";

/**
 * A language as the terminal colours it: patterns tried in order at each position (sticky, so
 * they match only there), then words, which are keywords or plain. Strings and block comments
 * may be unclosed, so code still streaming in colours as it will once closed.
 */
export interface Grammar {
  rules: readonly { kind: Exclude<TokenKind, "plain">; pattern: RegExp }[];
  word: RegExp;
  keywords: ReadonlySet<string>;
}

const words = (list: string) => new Set(list.split(" "));

const lineComment = { kind: "comment", pattern: /\/\/[^\n]*/y } as const;
const blockComment = { kind: "comment", pattern: /\/\*[\s\S]*?(?:\*\/|$)/y } as const;
const hashComment = { kind: "comment", pattern: /#[^\n]*/y } as const;
const doubleQuoted = { kind: "string", pattern: /"(?:\\.|[^"\\\n])*"?/y } as const;
const singleQuoted = { kind: "string", pattern: /'(?:\\.|[^'\\\n])*'?/y } as const;
const backQuoted = { kind: "string", pattern: /`(?:\\[\s\S]|[^`\\])*`?/y } as const;
/** Decimal, hex, octal and binary literals, with the suffixes languages put on them (`10n`, `2u8`, `1.5f32`). */
const number = {
  kind: "number",
  pattern: /(?:0[xX][\da-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d+)?)\w*/y,
} as const;
const identifier = /[A-Za-z_$][\w$]*/y;

const typescript: Grammar = {
  rules: [lineComment, blockComment, doubleQuoted, singleQuoted, backQuoted, number],
  word: identifier,
  keywords: words(
    "abstract as async await break case catch class const continue debugger declare default delete do else enum export extends false finally for from function if implements import in instanceof interface keyof let namespace new null of private protected public readonly return satisfies static super switch this throw true try type typeof undefined var void while with yield",
  ),
};

const python: Grammar = {
  rules: [
    hashComment,
    { kind: "string", pattern: /[rRbBuUfF]{0,2}"""[\s\S]*?(?:"""|$)/y },
    { kind: "string", pattern: /[rRbBuUfF]{0,2}'''[\s\S]*?(?:'''|$)/y },
    { kind: "string", pattern: /[rRbBuUfF]{0,2}"(?:\\.|[^"\\\n])*"?/y },
    { kind: "string", pattern: /[rRbBuUfF]{0,2}'(?:\\.|[^'\\\n])*'?/y },
    number,
  ],
  word: /[A-Za-z_]\w*/y,
  keywords: words(
    "False None True and as assert async await break case class continue def del elif else except finally for from global if import in is lambda match nonlocal not or pass raise return self try while with yield",
  ),
};

const go: Grammar = {
  rules: [lineComment, blockComment, doubleQuoted, backQuoted, singleQuoted, number],
  word: /[A-Za-z_]\w*/y,
  keywords: words(
    "break case chan const continue default defer else fallthrough false for func go goto if import interface iota map nil package range return select struct switch true type var",
  ),
};

const rust: Grammar = {
  rules: [
    lineComment,
    blockComment,
    { kind: "string", pattern: /r(#*)"[\s\S]*?(?:"\1|$)/y },
    { kind: "string", pattern: /b?"(?:\\[\s\S]|[^"\\])*"?/y },
    // A character, not a lifetime ('a): a lifetime has no closing quote.
    { kind: "string", pattern: /b?'(?:\\.|[^'\\\n])'/y },
    number,
  ],
  word: /[A-Za-z_]\w*/y,
  keywords: words(
    "Err None Ok Self Some as async await break const continue crate dyn else enum extern false fn for if impl in let loop match mod move mut pub ref return self static struct super trait true type unsafe use where while",
  ),
};

const json: Grammar = {
  rules: [
    lineComment,
    blockComment,
    doubleQuoted,
    { kind: "number", pattern: /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y },
  ],
  word: /[A-Za-z_]\w*/y,
  keywords: words("false null true"),
};

const shell: Grammar = {
  rules: [
    // `#` starts a comment only at the start of a word: `a#b` is one word.
    { kind: "comment", pattern: /(?<![^\s;|&(])#[^\n]*/y },
    { kind: "string", pattern: /"(?:\\[\s\S]|[^"\\])*"?/y },
    { kind: "string", pattern: /'[^']*'?/y },
    { kind: "number", pattern: /\d+\b/y },
  ],
  word: /[A-Za-z_][\w-]*/y,
  keywords: words(
    "case declare do done elif else esac exit export fi for function if in local readonly return set shift then unset until while",
  ),
};

const css: Grammar = {
  rules: [
    blockComment,
    doubleQuoted,
    singleQuoted,
    { kind: "keyword", pattern: /@[\w-]+|!important/y },
    { kind: "number", pattern: /#[\da-fA-F]{3,8}\b|\d*\.?\d+(?:%|[a-zA-Z]+)?/y },
  ],
  word: /[A-Za-z_][\w-]*|--[\w-]+/y,
  keywords: words("and from inherit initial not only to unset"),
};

/** Every name a fence or a file extension gives a language by, to its grammar. */
export const grammars: Readonly<Record<string, Grammar>> = {
  ts: typescript,
  typescript,
  tsx: typescript,
  mts: typescript,
  cts: typescript,
  js: typescript,
  javascript: typescript,
  jsx: typescript,
  mjs: typescript,
  cjs: typescript,
  py: python,
  python,
  python3: python,
  go,
  golang: go,
  rs: rust,
  rust,
  json,
  jsonc: json,
  json5: json,
  sh: shell,
  bash: shell,
  zsh: shell,
  shell,
  console: shell,
  css,
  scss: css,
};
