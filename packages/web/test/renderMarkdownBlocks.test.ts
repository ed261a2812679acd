import { getDefaults, Lexer, type Token } from "marked";
import { describe, expect, it } from "vitest";
import { type MarkdownBlocks, splitMarkdownBlocks } from "../src/render/markdownBlocks.js";

/** A message using every construct whose extent depends on what follows it. */
const sample = [
  "# Plan",
  "",
  "Some *emphasis*, **strong**, ~~gone~~, `code`, a [link](https://example.com) and [ref][docs].",
  "A setext heading",
  "================",
  "",
  "- first",
  "- second",
  "",
  "- loose third",
  "  continued",
  "  - nested [x] item",
  "  - [ ] task",
  "",
  "1. one",
  "2. two",
  "",
  "```ts",
  "const x = 1;",
  "",
  "console.log(x);",
  "```",
  "",
  "    indented code",
  "",
  "    more of it",
  "",
  "> quoted",
  "lazy line",
  "",
  "| a | b |",
  "|:--|--:|",
  "| 1 | 2 |",
  "| 3 | 4 |",
  "",
  "<div>",
  "raw <b>html</b>",
  "</div>",
  "",
  "***",
  "",
  "Paragraph",
  "[docs]: https://docs.example.com",
  "",
  "[later]: https://later.example.com",
  "",
  "Uses [later] and [docs].",
  "```",
  "unclosed fence",
].join("\n");

const wholeLex = (text: string): Token[] => new Lexer(getDefaults()).lex(text);

/** Feeds `text` in chunks as a stream would, checking every intermediate result against a whole lex. */
function streamInChunks(text: string, chunkSize: number): MarkdownBlocks {
  let blocks: MarkdownBlocks | undefined;
  for (let end = Math.min(chunkSize, text.length); ; end = Math.min(end + chunkSize, text.length)) {
    const prefix = text.slice(0, end);
    const next = splitMarkdownBlocks(prefix, blocks);
    expect(JSON.stringify(next.tokens), `after ${end} characters`).toBe(JSON.stringify(wholeLex(prefix)));
    blocks = next;
    if (end === text.length) return blocks;
  }
}

describe("splitMarkdownBlocks", () => {
  it("gives the tokens of a whole lex at every length while the text grows a character at a time", () => {
    streamInChunks(sample, 1);
  });

  it("gives the tokens of a whole lex for larger chunks", () => {
    for (const size of [2, 3, 7, 16, 50]) streamInChunks(sample, size);
  });

  it("leaves only the block still being written unstable once the stream ends", () => {
    const blocks = streamInChunks(sample, 5);
    expect(blocks.stableSource).toBe(sample.slice(0, sample.lastIndexOf("```\nunclosed")));
    expect(blocks.tokens.slice(blocks.stableCount).map((token) => token.type)).toEqual(["code"]);
  });

  it("keeps the stable blocks' tokens, by identity, when text is appended", () => {
    const first = splitMarkdownBlocks("# Title\n\nOne paragraph.\n\nTwo");
    expect(first.tokens.map((token) => [token.type, token.raw])).toEqual([
      ["heading", "# Title"],
      ["space", "\n\n"],
      ["paragraph", "One paragraph."],
      ["space", "\n\n"],
      ["paragraph", "Two"],
    ]);
    expect(first.stableCount).toBe(4);
    expect(first.stableSource).toBe("# Title\n\nOne paragraph.\n\n");

    const second = splitMarkdownBlocks("# Title\n\nOne paragraph.\n\nTwo more", first);
    for (let index = 0; index < 4; index++) expect(second.tokens[index]).toBe(first.tokens[index]);
    expect(second.tokens[4]!.raw).toBe("Two more");
  });

  it("keeps the last block open: a list gains an item after a blank line", () => {
    const open = splitMarkdownBlocks("Intro\n\n- a\n\n");
    expect(open.tokens.map((token) => [token.type, token.raw])).toEqual([
      ["paragraph", "Intro"],
      ["space", "\n\n"],
      ["list", "- a"],
      ["space", "\n\n"],
    ]);
    expect(open.stableCount).toBe(2);
    const grown = splitMarkdownBlocks("Intro\n\n- a\n\n- b", open);
    expect(grown.tokens.map((token) => [token.type, token.raw])).toEqual([
      ["paragraph", "Intro"],
      ["space", "\n\n"],
      ["list", "- a\n\n- b"],
    ]);
  });

  it("starts over when the text no longer begins with the stable part", () => {
    const first = splitMarkdownBlocks("Alpha\n\nBeta");
    const replaced = splitMarkdownBlocks("Gamma\n\nDelta", first);
    expect(replaced.tokens.map((token) => token.raw)).toEqual(["Gamma", "\n\n", "Delta"]);
    expect(replaced.tokens[0]).not.toBe(first.tokens[0]);
  });

  it("re-lexes earlier blocks when a later definition resolves their reference", () => {
    const before = splitMarkdownBlocks("See [site].\n\nMore\n\n");
    const after = splitMarkdownBlocks("See [site].\n\nMore\n\n[site]: https://example.com\n\nEnd", before);
    expect(JSON.stringify(after.tokens)).toBe(
      JSON.stringify(wholeLex("See [site].\n\nMore\n\n[site]: https://example.com\n\nEnd")),
    );
    const paragraph = after.tokens[0] as { tokens: Token[] };
    expect(paragraph.tokens.map((token) => token.type)).toEqual(["text", "link", "text"]);
  });

  it("treats CRLF line ends as the lexer does", () => {
    const blocks = splitMarkdownBlocks("a\r\n\r\nb");
    expect(blocks.tokens.map((token) => token.raw)).toEqual(["a", "\n\n", "b"]);
  });
});
