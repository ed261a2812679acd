import { type Grammar, grammars, type TokenKind } from "./codeGrammars.js";

export type { TokenKind } from "./codeGrammars.js";

/** A run of code of one kind, on one line. */
export interface CodeToken {
  text: string;
  kind: TokenKind;
}

/** The language a code fence's info string names (`ts`, `Python title=x`), if the terminal colours it. */
export function fenceLanguage(info: string | undefined): string | undefined {
  const word = info?.trim().split(/\s+/, 1)[0]?.toLowerCase();
  return word && Object.hasOwn(grammars, word) ? word : undefined;
}

/** The language a file's name says it holds (`src/a.ts` → `ts`), if the terminal colours it. */
export function pathLanguage(path: string): string | undefined {
  const extension = /\.([A-Za-z\d]+)$/.exec(path)?.[1];
  return fenceLanguage(extension);
}

/**
 * The lines of `code`, each cut into tokens to colour. A language the terminal does not know
 * gives each line as one plain token. Tokens never hold a line break: a string or comment over
 * several lines is cut at each.
 */
export function highlightCode(code: string, language: string | undefined): CodeToken[][] {
  const grammar =
    language !== undefined && Object.hasOwn(grammars, language) ? grammars[language] : undefined;
  const tokens: CodeToken[] = grammar ? tokenize(code, grammar) : [{ text: code, kind: "plain" }];
  const lines: CodeToken[][] = [[]];
  for (const token of tokens) {
    token.text.split("\n").forEach((piece, index) => {
      if (index > 0) lines.push([]);
      if (piece !== "") lines.at(-1)?.push({ text: piece, kind: token.kind });
    });
  }
  return lines;
}

function tokenize(code: string, grammar: Grammar): CodeToken[] {
  const tokens: CodeToken[] = [];
  const add = (text: string, kind: TokenKind) => {
    const last = tokens.at(-1);
    if (last?.kind === kind) last.text += text;
    else tokens.push({ text, kind });
  };
  let at = 0;
  while (at < code.length) {
    const matched = ruleAt(code, at, grammar) ?? wordAt(code, at, grammar);
    if (matched) {
      add(matched.text, matched.kind);
      at += matched.text.length;
    } else {
      add(code[at] ?? "", "plain");
      at++;
    }
  }
  return tokens;
}

function ruleAt(code: string, at: number, grammar: Grammar): CodeToken | undefined {
  for (const { kind, pattern } of grammar.rules) {
    pattern.lastIndex = at;
    const text = pattern.exec(code)?.[0];
    if (text) return { text, kind };
  }
  return undefined;
}

function wordAt(code: string, at: number, grammar: Grammar): CodeToken | undefined {
  grammar.word.lastIndex = at;
  const text = grammar.word.exec(code)?.[0];
  if (!text) return undefined;
  return { text, kind: grammar.keywords.has(text) ? "keyword" : "plain" };
}
