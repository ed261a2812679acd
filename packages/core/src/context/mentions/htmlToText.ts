const namedEntities: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  mdash: "—",
  ndash: "–",
  hellip: "…",
  copy: "©",
};

/** Elements whose content is never text a reader sees. */
const hiddenElements = /<(script|style|noscript|template|svg|head)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
/** Elements that start a new line where they begin or end. */
const blockTags =
  /<\/?(?:p|div|br|hr|h[1-6]|ul|ol|tr|table|section|article|header|footer|nav|main|aside|pre|blockquote|dt|dd|figure|figcaption)\b[^>]*>/gi;

/**
 * The readable text of an HTML page, simply: hidden elements and tags dropped, block elements as
 * line breaks, list items as `- `, entities decoded, blank runs collapsed. Not a layout engine;
 * a proper HTML-to-Markdown converter can take its place later.
 */
export function htmlToText(html: string): { title: string | undefined; text: string } {
  const title = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html)?.[1];
  const text = html
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(hiddenElements, "")
    .replace(/<li\b[^>]*>/gi, "\n- ")
    .replace(blockTags, "\n")
    .replace(/<[^>]*>/g, "")
    .replace(/[ \t\f\v\r]+/g, " ");
  const lines = decodeEntities(text)
    .split("\n")
    .map((line) => line.trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  const cleanTitle = title === undefined ? undefined : decodeEntities(title).replace(/\s+/g, " ").trim();
  return { title: cleanTitle || undefined, text: lines };
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, body: string) => {
    if (body.startsWith("#")) {
      const code =
        body[1] === "x" || body[1] === "X" ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return namedEntities[body.toLowerCase()] ?? entity;
  });
}
