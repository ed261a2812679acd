import { Readability } from "@mozilla/readability";
import TurndownService from "turndown";
import { type HtmlDocument, parseHtmlDocument } from "../../web/htmlDocument.js";

export interface ConvertedPage {
  title: string | undefined;
  /** Markdown or plain text, as asked. */
  text: string;
  /** False when readability found no article and the whole body was converted instead. */
  article: boolean;
}

/** Elements that never carry readable content. */
const noiseSelector = "script, style, noscript, template, iframe, svg, canvas";

const turndown = new TurndownService({
  headingStyle: "atx",
  codeBlockStyle: "fenced",
  bulletListMarker: "-",
});
turndown.remove(["script", "style", "noscript", "template", "iframe"]);

/**
 * The main content of a page as markdown: readability picks the article (dropping navigation,
 * footers, ads), turndown writes it out. Links are made absolute first so the model can fetch
 * them; a page where readability finds nothing is converted whole.
 */
export function htmlToMarkdown(html: string, pageUrl: string): ConvertedPage {
  const extracted = extractArticle(html, pageUrl);
  if (extracted !== undefined) {
    return { title: extracted.title, text: tidyMarkdown(turndown.turndown(extracted.html)), article: true };
  }
  const document = preparedDocument(html, pageUrl);
  const body = document.body?.innerHTML ?? html;
  return { title: titleOf(document), text: tidyMarkdown(turndown.turndown(body)), article: false };
}

/** The same choice of content as `htmlToMarkdown`, as plain text. */
export function htmlToText(html: string, pageUrl: string): ConvertedPage {
  const extracted = extractArticle(html, pageUrl);
  if (extracted !== undefined)
    return { title: extracted.title, text: tidyText(extracted.text), article: true };
  const document = preparedDocument(html, pageUrl);
  return { title: titleOf(document), text: tidyText(document.body?.textContent ?? ""), article: false };
}

interface Article {
  title: string | undefined;
  html: string;
  text: string;
}

function extractArticle(html: string, pageUrl: string): Article | undefined {
  // Readability rewrites the document it is given, so it gets a document of its own.
  const document = preparedDocument(html, pageUrl);
  const article = new Readability(document).parse();
  const text = article?.textContent?.trim() ?? "";
  if (!article?.content || text === "") return undefined;
  return { title: article.title?.trim() || titleOf(document), html: article.content, text };
}

function preparedDocument(html: string, pageUrl: string): HtmlDocument {
  const document = parseHtmlDocument(html);
  for (const element of document.querySelectorAll(noiseSelector)) element.remove();
  absolutizeLinks(document, pageUrl);
  return document;
}

/** Relative `href`/`src` made absolute against `<base href>` or the page's own URL. */
function absolutizeLinks(document: HtmlDocument, pageUrl: string): void {
  const base = resolve(document.querySelector("base[href]")?.getAttribute("href") ?? "", pageUrl) ?? pageUrl;
  for (const [selector, attribute] of [
    ["a[href]", "href"],
    ["img[src]", "src"],
  ] as const) {
    for (const element of document.querySelectorAll(selector)) {
      const value = element.getAttribute(attribute) ?? "";
      if (value.startsWith("#")) continue;
      const absolute = resolve(value, base);
      if (absolute !== undefined) element.setAttribute(attribute, absolute);
    }
  }
}

function resolve(reference: string, base: string): string | undefined {
  try {
    return new URL(reference, base).href;
  } catch {
    return undefined;
  }
}

function titleOf(document: HtmlDocument): string | undefined {
  return document.title.trim() || undefined;
}

/** Turndown leaves runs of blank lines where removed blocks were. */
function tidyMarkdown(markdown: string): string {
  return markdown.replace(/\n{3,}/g, "\n\n").trim();
}

/** Text content keeps the page's indentation and blank runs; neither helps a reader. */
function tidyText(text: string): string {
  return text
    .split("\n")
    .map((line) => line.replace(/\s+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
