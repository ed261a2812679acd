/** Counts tokens as the model will; injected, since the tokenizer belongs to another module. */
export type CountTokens = (text: string) => number;

/** Lines of a text without the line-ending characters; a final newline does not start a line. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n").map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** `    12|text`, as read_file shows lines, so the model can quote positions back. */
export function numberedLines(lines: readonly string[], firstLine: number): string {
  return lines.map((line, index) => `${String(firstLine + index).padStart(6)}|${line}`).join("\n");
}

/**
 * `<tag a="b">\nbody\n</tag>`. A body that holds the closing tag itself (a file about these tags,
 * a hostile web page) gets it broken up, so the content cannot end its section and pose as ours.
 */
export function tagged(
  tag: string,
  attributes: Record<string, string | number | undefined>,
  body: string,
): string {
  const attributeText = Object.entries(attributes)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([name, value]) => ` ${name}="${escapeAttribute(String(value))}"`)
    .join("");
  const safeBody = body.replaceAll(`</${tag}`, `<\\/${tag}`);
  return `<${tag}${attributeText}>\n${safeBody}\n</${tag}>`;
}

function escapeAttribute(value: string): string {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll('"', "&quot;")
    .replaceAll("<", "&lt;")
    .replaceAll("\n", " ");
}

/**
 * The largest n in 0…max for which `fits(n)` holds; -1 when none does. Below `max`, once it fails
 * it must keep failing; `max` itself is tried first and apart, since the whole of something often
 * renders shorter than most of it (no "… more not shown" note). Binary search, since each test
 * runs the tokenizer over a whole block.
 */
export function largestFitting(max: number, fits: (n: number) => boolean): number {
  if (fits(max)) return max;
  if (max <= 0 || !fits(0)) return -1;
  let low = 0;
  let high = max - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle - 1;
  }
  return low;
}

/**
 * The head or tail of `text` within `maxTokens`, cut at a line break when one is near enough that
 * the cut loses little, else mid-line (a minified file has no line breaks to cut at).
 */
export function keepWithinTokens(
  text: string,
  maxTokens: number,
  countTokens: CountTokens,
  keep: "head" | "tail",
): { text: string; cut: boolean } {
  if (countTokens(text) <= maxTokens) return { text, cut: false };
  const slice = (chars: number) => (keep === "head" ? text.slice(0, chars) : text.slice(text.length - chars));
  const chars = largestFitting(text.length, (n) => countTokens(slice(n)) <= maxTokens);
  const kept = slice(Math.max(0, chars));
  if (keep === "head") {
    const lineEnd = kept.lastIndexOf("\n");
    return { text: lineEnd > kept.length / 2 ? kept.slice(0, lineEnd) : kept, cut: true };
  }
  const lineStart = kept.indexOf("\n");
  return {
    text: lineStart >= 0 && lineStart < kept.length / 2 ? kept.slice(lineStart + 1) : kept,
    cut: true,
  };
}
