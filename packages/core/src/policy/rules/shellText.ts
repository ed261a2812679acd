/** Small text readers shared by the shell splitter and the risk analysis: brace and quote ends, ANSI-C escapes. */

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

const simpleEscapes: Record<string, string> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/**
 * Decodes the body of a `$'…'` string the way bash does, for the permission rules and the risk
 * analysis alike (`$'\x72m'` is `rm`, so neither a deny rule nor a hard block can be dodged by
 * spelling a name in escapes). A NUL ends the string, as it does in bash.
 */
export function decodeAnsiC(body: string): string {
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i] ?? "";
    if (c !== "\\" || i + 1 >= body.length) {
      out += c;
      continue;
    }
    const e = body[i + 1] ?? "";
    const simple = simpleEscapes[e];
    if (simple !== undefined) {
      out += simple;
      i++;
      continue;
    }
    const numeric = decodeNumericEscape(body, i + 1);
    if (numeric) {
      if (numeric.text === "\0") return out;
      out += numeric.text;
      i = numeric.end - 1;
      continue;
    }
    if (e === "c" && i + 2 < body.length) {
      out += String.fromCharCode((body.charCodeAt(i + 2) ?? 0) & 0x1f);
      i += 2;
      continue;
    }
    out += c + e;
    i++;
  }
  return out;
}

/** `\NNN` octal, `\xHH`, `\uHHHH`, `\UHHHHHHHH`, starting at the character after the backslash. */
function decodeNumericEscape(body: string, at: number): { text: string; end: number } | undefined {
  const kind = body[at];
  const forms: Record<string, { pattern: RegExp; radix: number; skip: number }> = {
    x: { pattern: /^[0-9a-fA-F]{1,2}/, radix: 16, skip: 1 },
    u: { pattern: /^[0-9a-fA-F]{1,4}/, radix: 16, skip: 1 },
    U: { pattern: /^[0-9a-fA-F]{1,8}/, radix: 16, skip: 1 },
  };
  const form = kind === undefined ? undefined : (forms[kind] ?? undefined);
  if (form) {
    const digits = form.pattern.exec(body.slice(at + form.skip))?.[0];
    if (!digits) return undefined;
    const code = Number.parseInt(digits, form.radix);
    return { text: safeFromCodePoint(code), end: at + form.skip + digits.length };
  }
  const octal = /^[0-7]{1,3}/.exec(body.slice(at))?.[0];
  if (!octal) return undefined;
  return { text: String.fromCharCode(Number.parseInt(octal, 8) & 0xff), end: at + octal.length };
}

function safeFromCodePoint(code: number): string {
  return code <= 0x10ffff ? String.fromCodePoint(code) : "";
}
