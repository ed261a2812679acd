import { decodeHtmlEntities } from "../../web/htmlEntities.js";
export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

/** SPEC §4: snippets are at most 300 characters. */
const maxSnippetChars = 300;
const maxTitleChars = 200;

/**
 * Cleans what a provider sent (runs of whitespace; for `markup` text, HTML highlights and
 * entities), drops entries that are not http(s) links and repeats of a URL, keeps at most `limit`.
 */
export function normaliseResults(
  raw: readonly { title?: string | undefined; url: string; snippet?: string | undefined }[],
  limit: number,
  markup: "html" | "text" = "text",
): SearchResult[] {
  const clean = markup === "html" ? plainText : oneLine;
  const seen = new Set<string>();
  const results: SearchResult[] = [];
  for (const entry of raw) {
    if (results.length >= limit) break;
    if (!/^https?:\/\//i.test(entry.url) || seen.has(entry.url)) continue;
    seen.add(entry.url);
    results.push({
      title: clip(clean(entry.title ?? ""), maxTitleChars) || entry.url,
      url: entry.url,
      snippet: clip(clean(entry.snippet ?? ""), maxSnippetChars),
    });
  }
  return results;
}

/** Numbered `title — url` lines with the snippet under each. */
export function formatResults(results: readonly SearchResult[]): string {
  return results
    .map((result, index) => {
      const line = `${index + 1}. ${result.title} — ${result.url}`;
      return result.snippet === "" ? line : `${line}\n   ${result.snippet}`;
    })
    .join("\n");
}

/** Some providers (Brave) highlight matches with `<strong>` and escape text as HTML. */
function plainText(html: string): string {
  return oneLine(decodeHtmlEntities(html.replace(/<[^>]*>/g, "")));
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}
