import type { PageKind } from "./mediaType.js";

export type PageFormat = "markdown" | "text" | "html";

export interface PageText {
  title: string | undefined;
  text: string;
  notes: string[];
}

/** The text the model reads for a page of a textual kind, in the format it asked for. */
export async function pageText(
  kind: Exclude<PageKind, "binary">,
  source: string,
  url: string,
  format: PageFormat,
): Promise<PageText> {
  const notes: string[] = [];
  let title: string | undefined;
  let text = source;
  if (kind === "html" && format !== "html") {
    // The DOM and the converters load with the first HTML page, not when Lathe starts.
    const { htmlToMarkdown, htmlToText } = await import("./htmlToMarkdown.js");
    const converted = format === "markdown" ? htmlToMarkdown(source, url) : htmlToText(source, url);
    title = converted.title;
    text = converted.text;
    if (!converted.article) notes.push("No main article was found, so the whole page is shown.");
  } else if (kind === "json") {
    const pretty = prettyJson(source);
    if (pretty === undefined)
      notes.push("The body is declared as JSON but does not parse; it is shown as sent.");
    else text = pretty;
  }
  if (text.trim() === "" && title === undefined) notes.push("The page has no readable text.");
  return { title, text, notes };
}

function prettyJson(source: string): string | undefined {
  try {
    return JSON.stringify(JSON.parse(source), null, 2);
  } catch {
    return undefined;
  }
}
