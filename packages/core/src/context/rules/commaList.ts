/**
 * Splits `a, b, c` at the commas that separate items, not at those inside braces, brackets or
 * quotes, so a glob such as `src/*.{ts,tsx}` stays whole. Items are trimmed, unquoted, and
 * empty ones dropped.
 */
export function splitCommaList(text: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let escaped = false;
  let current = "";
  for (const char of text) {
    current += char;
    if (quote !== undefined) {
      if (escaped) escaped = false;
      else if (char === "\\" && quote === '"') escaped = true;
      else if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === "{" || char === "[") depth++;
    else if ((char === "}" || char === "]") && depth > 0) depth--;
    else if (char === "," && depth === 0) {
      items.push(current.slice(0, -1));
      current = "";
    }
  }
  items.push(current);
  return items.map((item) => unquote(item.trim())).filter((item) => item !== "");
}

/** `"text"` or `'text'` without its quotes; in double quotes `\"` and `\\` are escapes, in single quotes `''`. */
export function unquote(text: string): string {
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    return text.slice(1, -1).replace(/\\(["\\])/g, "$1");
  }
  if (text.length >= 2 && text.startsWith("'") && text.endsWith("'")) {
    return text.slice(1, -1).replace(/''/g, "'");
  }
  return text;
}
