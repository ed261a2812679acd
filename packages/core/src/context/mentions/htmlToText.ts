import { decodeHtmlEntities } from "../../tools/web/htmlEntities.js";

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
  const lines = decodeHtmlEntities(text)
    .split("\n")
    .map((line) => line.trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  const cleanTitle = title === undefined ? undefined : decodeHtmlEntities(title).replace(/\s+/g, " ").trim();
  return { title: cleanTitle || undefined, text: lines };
}
