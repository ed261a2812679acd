/** Small text scanners for the shell splitter: brace and quote ends, ANSI-C escapes. */

/** Index of the `}` closing a `${` whose body starts at `from`, or -1. */
export function matchingBrace(text: string, from: number): number {
  let depth = 0;
  for (let index = from; index < text.length; index++) {
    const char = text[index];
    if (char === "\\") index++;
    else if (char === "{") depth++;
    else if (char === "}") {
      if (depth === 0) return index;
      depth--;
    }
  }
  return -1;
}

export function ansiQuoteEnd(text: string, from: number): number {
  for (let index = from; index < text.length; index++) {
    if (text[index] === "\\") index++;
    else if (text[index] === "'") return index;
  }
  return -1;
}

const ansiEscapes: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/** `$'\x72m'` is `rm`: decoded, so that a deny rule cannot be dodged by spelling a name in escapes. */
export function decodeAnsiC(body: string): string {
  return body.replace(
    /\\(x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|U[0-9A-Fa-f]{1,8}|[0-7]{1,3}|c.|.)/gs,
    (_, sequence: string) => {
      const kind = sequence[0] ?? "";
      if (kind === "x" || kind === "u" || kind === "U") {
        const codePoint = Number.parseInt(sequence.slice(1), 16);
        return codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : "\uFFFD";
      }
      if (/[0-7]/.test(kind)) return String.fromCharCode(Number.parseInt(sequence, 8));
      if (kind === "c") return String.fromCharCode(sequence.charCodeAt(1) & 0x1f);
      return ansiEscapes[sequence] ?? `\\${sequence}`;
    },
  );
}
