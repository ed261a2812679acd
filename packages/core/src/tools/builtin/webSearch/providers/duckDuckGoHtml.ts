import { parseHtmlDocument } from "../../../web/htmlDocument.js";

export interface RawResult {
  title: string;
  url: string;
  snippet: string;
}

export type ParsedPage = { ok: true; results: RawResult[] } | { ok: false; reason: string };

/**
 * Reads DuckDuckGo's HTML results page (`html.duckduckgo.com/html/`): each hit is a `.result`
 * with a `.result__a` title link and a `.result__snippet`; ads are `.result--ad`. Links go through
 * DuckDuckGo's redirector (`/l/?uddg=<target>`), which is unwrapped so the model gets the real URL.
 * A page with neither hits nor a "no results" notice is a challenge or a changed layout: a failure,
 * so the next provider is tried, rather than an empty answer.
 */
export function parseDuckDuckGoHtml(html: string, pageUrl: string): ParsedPage {
  const document = parseHtmlDocument(html);
  const results: RawResult[] = [];
  for (const element of document.querySelectorAll(".result")) {
    if (/\bresult--ad\b/.test(element.getAttribute("class") ?? "")) continue;
    const link = element.querySelector(".result__a");
    const href = link?.getAttribute("href");
    if (link === null || !href) continue;
    const url = unwrapRedirect(href, pageUrl);
    if (url === undefined) continue;
    const snippet = element.querySelector(".result__snippet")?.textContent ?? "";
    results.push({ title: link.textContent ?? "", url, snippet });
  }
  if (results.length > 0 || document.querySelector(".no-results") !== null) return { ok: true, results };
  return {
    ok: false,
    reason: "the page has no results list (DuckDuckGo may be showing a challenge or rate limiting)",
  };
}

function unwrapRedirect(href: string, pageUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(href, pageUrl);
  } catch {
    return undefined;
  }
  const target = url.pathname.startsWith("/l/") ? url.searchParams.get("uddg") : null;
  return target ?? url.href;
}
