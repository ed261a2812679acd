import { parseHTML } from "linkedom";

/**
 * The few DOM members this code uses. linkedom's own declarations lean on the DOM library, which
 * this Node project does not load, so without these its types would all collapse to `any`.
 */
export interface HtmlElement {
  readonly tagName: string;
  readonly textContent: string | null;
  readonly innerHTML: string;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  querySelector(selector: string): HtmlElement | null;
  querySelectorAll(selector: string): Iterable<HtmlElement>;
  remove(): void;
}

export interface HtmlDocument {
  readonly title: string;
  readonly body: HtmlElement | null;
  querySelector(selector: string): HtmlElement | null;
  querySelectorAll(selector: string): Iterable<HtmlElement>;
}

/** A light, script-free DOM of `html` (linkedom runs no scripts and loads nothing). */
export function parseHtmlDocument(html: string): HtmlDocument {
  const { document } = parseHTML(html);
  return document as HtmlDocument;
}
