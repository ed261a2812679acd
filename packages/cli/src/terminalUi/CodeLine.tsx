import { Text } from "ink";
import type { CodeToken, TokenKind } from "./syntaxHighlight.js";

/** Colours that read on dark and light terminals alike, and clash with neither red nor green diff lines. */
const tokenColors: Record<Exclude<TokenKind, "plain">, string> = {
  keyword: "magenta",
  string: "yellow",
  comment: "gray",
  number: "cyan",
};

/**
 * One line of code, each token in its colour; plain text in `plainColor` (a diff line's red or
 * green), or the terminal's own. Meant to sit inside a `<Text>`.
 */
export function CodeLine({ tokens, plainColor }: { tokens: readonly CodeToken[]; plainColor?: string }) {
  return (
    <>
      {tokens.map((token, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the tokens of one line, rebuilt as a whole
        <Text key={index} color={token.kind === "plain" ? plainColor : tokenColors[token.kind]}>
          {token.text}
        </Text>
      ))}
    </>
  );
}
