const escapes: Readonly<Record<string, string>> = {
  n: "\n",
  t: "\t",
  r: "\r",
  '"': '"',
  "'": "'",
  "\\": "\\",
};

/**
 * Undoes one level of escaping that models add when they encode their arguments twice: the two
 * characters `\n` become a line break, `\"` a quote, `\\` one backslash. One pass from left to
 * right, so `\\n` stays a backslash followed by `n`.
 */
export function unescapeOverEscaped(text: string): string {
  return text.replace(/\\([ntr"'\\])/g, (_sequence, character: string) => escapes[character] ?? character);
}
