import { getDefaults, Lexer, type Links, type MarkedToken, type Token, type TokensList } from "marked";

/**
 * The top-level markdown blocks of a text, split so that a text that only grows (a streaming
 * message) can be re-lexed from its last block instead of from the start.
 */
export interface MarkdownBlocks {
  /** Every top-level token of the text, in order; `space` tokens included. */
  readonly tokens: readonly Token[];
  /** How many leading tokens appending text can no longer change: they keep their identity. */
  readonly stableCount: number;
  /** The text those stable tokens were lexed from. */
  readonly stableSource: string;
  /** The link reference definitions among the stable tokens, which later blocks may use. */
  readonly stableLinks: Readonly<Links>;
}

const carriageReturns = /\r\n?/g;

function lex(source: string, links: Readonly<Links>): TokensList {
  // A fresh option set per lexer, so that nothing another module passes to `marked.use` applies here.
  const lexer = new Lexer(getDefaults());
  Object.assign(lexer.tokens.links, links);
  return lexer.lex(source);
}

/** A link table without a prototype, so that labels such as "constructor" are looked up safely. */
function linkTable(from?: Readonly<Links>): Links {
  return Object.assign(Object.create(null) as Links, from);
}

/** The link reference definitions among `tokens`, nested ones (in quotes, list items) included. */
function definitionsIn(tokens: readonly Token[], into: Links): Links {
  for (const token of tokens) {
    const block = token as MarkedToken;
    if (block.type === "def") {
      // The first definition of a label wins, as in the lexer.
      into[block.tag] ??= { href: block.href, title: block.title };
    } else if (block.type === "blockquote") {
      definitionsIn(block.tokens, into);
    } else if (block.type === "list") {
      for (const item of block.items) definitionsIn(item.tokens, into);
    }
  }
  return into;
}

function lastNonSpaceIndex(tokens: readonly Token[]): number {
  for (let index = tokens.length - 1; index >= 0; index--) {
    if (tokens[index]!.type !== "space") return index;
  }
  return -1;
}

/**
 * Splits `text` into top-level markdown tokens, reusing `previous` (the result for an earlier
 * version of the same text) when `text` still starts with its stable part: only the rest is lexed.
 *
 * Appending text can change the last non-space block (a paragraph becomes a setext heading, a list
 * gains an item after a blank line, an open code fence grows), never one before it, so everything
 * before the last non-space block becomes stable. The result is the same as lexing `text` whole.
 */
export function splitMarkdownBlocks(text: string, previous?: MarkdownBlocks): MarkdownBlocks {
  const source = text.includes("\r") ? text.replace(carriageReturns, "\n") : text;
  const reusable = previous !== undefined && source.startsWith(previous.stableSource);
  const stableTokens = reusable ? previous.tokens.slice(0, previous.stableCount) : [];
  const stableSource = reusable ? previous.stableSource : "";
  const stableLinks = reusable ? previous.stableLinks : linkTable();
  const rest = source.slice(stableSource.length);
  const restTokens = lex(rest, stableLinks);

  // A new definition may resolve a reference in a block lexed before it existed.
  if (
    stableTokens.length > 0 &&
    Object.keys(restTokens.links).some((label) => !Object.hasOwn(stableLinks, label))
  ) {
    return splitMarkdownBlocks(source);
  }

  const tokens = stableTokens.length === 0 ? restTokens : [...stableTokens, ...restTokens];
  const settled = lastNonSpaceIndex(restTokens);
  const settledTokens = restTokens.slice(0, Math.max(settled, 0));
  const settledSource = settledTokens.map((token) => token.raw).join("");
  // The lexer folds some lines into a neighbour's raw text; offsets derived from raws are then unsafe.
  const rawsCoverRest = restTokens.map((token) => token.raw).join("") === rest;
  if (settledTokens.length === 0 || !rawsCoverRest) {
    return { tokens, stableCount: stableTokens.length, stableSource, stableLinks };
  }
  return {
    tokens,
    stableCount: stableTokens.length + settledTokens.length,
    stableSource: stableSource + settledSource,
    stableLinks: definitionsIn(settledTokens, linkTable(stableLinks)),
  };
}
