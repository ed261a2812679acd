/**
 * Translates a regular expression written for ripgrep (Rust `regex` syntax) into a JavaScript
 * RegExp that finds the same lines, so the fallback engine agrees with ripgrep.
 *
 * The result is meant to run over a whole file with the `g` flag and never matches across a line
 * break, as ripgrep's line-oriented search cannot: `.` and negated classes leave out "\n", `^` and
 * `$` (and `\A`, `\z`) mean the start and end of a line, and classes that could match "\n" are
 * guarded. Perl classes follow Rust's Unicode definitions (`\w`, `\d`, `\s`, `\b`), not
 * JavaScript's ASCII ones. What Rust's syntax refuses (look-around, backreferences, a literal
 * line break) is refused here too; what JavaScript cannot express is refused with the reason.
 */
export type RegexTranslation = { ok: true; regex: RegExp } | { ok: false; reason: string };

export function compileRustRegex(pattern: string, caseInsensitive: boolean): RegexTranslation {
  const translator = new Translator(pattern, caseInsensitive);
  const source = translator.translate();
  if (typeof source !== "string") return { ok: false, reason: source.reason };
  try {
    return { ok: true, regex: new RegExp(source, translator.flags()) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      reason: `invalid regular expression: ${message.replace(/^Invalid regular expression: /, "")}`,
    };
  }
}

interface Refusal {
  reason: string;
}

/** Rust's Unicode `\w`: UTS#18 word characters. */
const wordMembers = String.raw`\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}`;
const word = `[${wordMembers}]`;
const lineStart = String.raw`(?<![^\n])`;
const lineEnd = String.raw`(?![^\n])`;

/** POSIX classes, ASCII-only in Rust as in POSIX. */
const posixClasses: Readonly<Record<string, string>> = {
  alnum: "0-9A-Za-z",
  alpha: "A-Za-z",
  ascii: String.raw`\x00-\x7F`,
  blank: String.raw`\t `,
  cntrl: String.raw`\x00-\x1F\x7F`,
  digit: "0-9",
  graph: "!-~",
  lower: "a-z",
  print: " -~",
  punct: String.raw`!-\/:-@\[-\x60\{-~`,
  space: String.raw`\t\n\v\f\r `,
  upper: "A-Z",
  word: "0-9A-Za-z_",
  xdigit: "0-9A-Fa-f",
};

const simpleEscapes: Readonly<Record<string, string>> = {
  t: String.raw`\t`,
  r: String.raw`\r`,
  f: String.raw`\f`,
  v: String.raw`\v`,
  a: String.raw`\x07`,
};

/** Inline-flag groups, `(?i)` and `(?i:…)`, are supported when this engine has regexp modifiers. */
const supportsModifiers = (() => {
  try {
    /(?i:a)/u;
    return true;
  } catch {
    return false;
  }
})();

const newline = 0x0a;

class Translator {
  private index = 0;
  private ignoreCase: boolean;
  private verbose = false;
  private readonly out: string[] = [];

  constructor(
    private readonly pattern: string,
    caseInsensitive: boolean,
  ) {
    this.ignoreCase = caseInsensitive;
  }

  flags(): string {
    return this.ignoreCase ? "giu" : "gu";
  }

  translate(): string | Refusal {
    const leading = this.leadingFlags();
    if (leading !== undefined) return leading;
    while (this.index < this.pattern.length) {
      const refusal = this.step();
      if (refusal !== undefined) return refusal;
    }
    return this.out.join("");
  }

  /** `(?i)`, `(?x)`… at the very start set flags for the whole pattern. */
  private leadingFlags(): Refusal | undefined {
    for (;;) {
      this.skipVerbose();
      const match = /^\(\?([a-zA-Z-]*)\)/.exec(this.pattern.slice(this.index));
      if (match === null) return undefined;
      let enable = true;
      for (const flag of match[1] ?? "") {
        if (flag === "-") {
          enable = false;
          continue;
        }
        if (flag === "i") this.ignoreCase = enable;
        else if (flag === "x") this.verbose = enable;
        else {
          const refusal = this.harmlessFlag(flag, enable);
          if (refusal !== undefined) return refusal;
        }
      }
      this.index += match[0].length;
    }
  }

  /** `m`, `s` and `u` change nothing for a search that is line by line and Unicode already. */
  private harmlessFlag(flag: string, enable: boolean): Refusal | undefined {
    if (flag === "m" || flag === "s" || (flag === "u" && enable)) return undefined;
    if (flag === "u")
      return refuse("the flag -u (bytes instead of Unicode) is not supported by the built-in search");
    if (flag === "U" || flag === "R")
      return refuse(`the flag ${flag} is not supported by the built-in search`);
    return refuse(`unrecognized flag ${flag}`);
  }

  private step(): Refusal | undefined {
    this.skipVerbose();
    if (this.index >= this.pattern.length) return undefined;
    const char = this.pattern[this.index] ?? "";
    this.index++;
    switch (char) {
      case "\\":
        return this.escape();
      case "[":
        return this.characterClass();
      case "(":
        return this.group();
      case ".":
        this.out.push(String.raw`[^\n]`);
        return undefined;
      case "^":
        this.out.push(lineStart);
        return undefined;
      case "$":
        this.out.push(lineEnd);
        return undefined;
      case "{":
        return this.counted();
      // Literal in Rust, a syntax error unescaped in JavaScript's Unicode mode.
      case "]":
      case "}":
        this.out.push(`\\${char}`);
        return undefined;
      case "\n":
        return refuse("the pattern contains a line break; the search is line by line");
      default:
        this.out.push(char);
        return undefined;
    }
  }

  private skipVerbose(): void {
    if (!this.verbose) return;
    while (this.index < this.pattern.length) {
      const char = this.pattern[this.index] ?? "";
      if (/\s/.test(char)) {
        this.index++;
      } else if (char === "#") {
        const end = this.pattern.indexOf("\n", this.index);
        this.index = end === -1 ? this.pattern.length : end + 1;
      } else {
        return;
      }
    }
  }

  /** `{n}`, `{n,}` or `{n,m}`, as both syntaxes write them; anything else is an error in Rust too. */
  private counted(): Refusal | undefined {
    const match = /^(\d+)(,\d*)?\}\??/.exec(this.pattern.slice(this.index));
    if (match === null)
      return refuse("a { that does not start a repetition such as {2,5}; write \\{ for a literal brace");
    this.out.push(`{${match[0]}`);
    this.index += match[0].length;
    return undefined;
  }

  private group(): Refusal | undefined {
    const rest = this.pattern.slice(this.index);
    if (!rest.startsWith("?")) {
      this.out.push("(");
      return undefined;
    }
    if (rest.startsWith("?:")) {
      this.out.push("(?:");
      this.index += 2;
      return undefined;
    }
    if (/^\?(=|!|<=|<!)/.test(rest))
      return refuse("look-around, including look-ahead and look-behind, is not supported");
    if (rest.startsWith("?P=")) return refuse("backreferences are not supported");
    const named = /^\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest);
    if (named !== null) {
      this.out.push(`(?<${named[1]}>`);
      this.index += named[0].length;
      return undefined;
    }
    const flags = /^\?([a-zA-Z-]*)(:|\))/.exec(rest);
    if (flags === null) return refuse("unrecognized group syntax after (?");
    if (flags[2] === ")") {
      return refuse(
        "inline flags such as (?i) are supported only at the start of the pattern; move them there or use (?i:…)",
      );
    }
    this.index += flags[0].length;
    return this.scopedFlags(flags[1] ?? "");
  }

  /** `(?i:…)` and `(?-i:…)` map to regexp modifiers; the other flags change nothing here. */
  private scopedFlags(spec: string): Refusal | undefined {
    let enable = true;
    let modifier = "";
    for (const flag of spec) {
      if (flag === "-") {
        enable = false;
        continue;
      }
      if (flag === "i") {
        modifier = enable ? "i" : "-i";
        continue;
      }
      if (flag === "x") return refuse("the flag x is supported only at the start of the pattern, as (?x)");
      const refusal = this.harmlessFlag(flag, enable);
      if (refusal !== undefined) return refusal;
    }
    if (modifier !== "" && !supportsModifiers) {
      return refuse("scoped case flags such as (?i:…) need a newer Node.js; use case_insensitive instead");
    }
    this.out.push(`(?${modifier}:`);
    return undefined;
  }

  private escape(): Refusal | undefined {
    const char = this.pattern[this.index];
    if (char === undefined) return refuse("the pattern ends with an unfinished escape \\");
    this.index++;
    switch (char) {
      case "d":
        this.out.push(String.raw`\p{Nd}`);
        return undefined;
      case "D":
        this.out.push(String.raw`[^\p{Nd}\n]`);
        return undefined;
      case "w":
        this.out.push(word);
        return undefined;
      case "W":
        this.out.push(`[^${wordMembers}\\n]`);
        return undefined;
      case "s":
        this.out.push(String.raw`[^\P{White_Space}\n]`);
        return undefined;
      case "S":
        this.out.push(String.raw`\P{White_Space}`);
        return undefined;
      case "b":
        this.out.push(`(?:(?<=${word})(?!${word})|(?<!${word})(?=${word}))`);
        return undefined;
      case "B":
        this.out.push(`(?:(?<=${word})(?=${word})|(?<!${word})(?!${word}))`);
        return undefined;
      case "<":
        this.out.push(`(?<!${word})(?=${word})`);
        return undefined;
      case ">":
        this.out.push(`(?<=${word})(?!${word})`);
        return undefined;
      case "A":
        this.out.push(lineStart);
        return undefined;
      case "z":
        this.out.push(lineEnd);
        return undefined;
      case "p":
      case "P": {
        const property = this.unicodeProperty(char);
        if (typeof property !== "string") return property;
        // Properties such as White_Space include "\n", which a line never contains.
        this.out.push(char === "p" ? `[^\\P{${property}}\\n]` : `[^\\p{${property}}\\n]`);
        return undefined;
      }
      default: {
        const literal = this.literalEscape(char);
        if (typeof literal !== "string") return literal;
        this.out.push(literal);
        return undefined;
      }
    }
  }

  /** Escapes that stand for one character, the same inside and outside a class. */
  private literalEscape(char: string): string | Refusal {
    const simple = simpleEscapes[char];
    if (simple !== undefined) return simple;
    if (char === "n") return refuse('the literal "\\n" is not allowed: the search is line by line');
    if (char === "x" || char === "u" || char === "U") return this.codePointEscape(char);
    if (/[0-9]/.test(char) || char === "k") return refuse("backreferences are not supported");
    if (/[!-/:-@[-`{-~]/.test(char)) return hexEscape(char.codePointAt(0) ?? 0);
    return refuse(`unrecognized escape sequence \\${char}`);
  }

  /** `\x7F`, `\x{10FFFF}`, `\u007F`, `\u{7F}`, `\U0000007F`, `\U{7F}`. */
  private codePointEscape(kind: string): string | Refusal {
    const rest = this.pattern.slice(this.index);
    const digits = kind === "x" ? 2 : kind === "u" ? 4 : 8;
    const match = /^\{([0-9A-Fa-f]{1,8})\}/.exec(rest) ?? new RegExp(`^([0-9A-Fa-f]{${digits}})`).exec(rest);
    if (match === null) return refuse(`invalid escape \\${kind}: expected ${digits} hex digits or {…}`);
    const codePoint = Number.parseInt(match[1] ?? "", 16);
    if (codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) {
      return refuse(`\\${kind}${match[0]} is not a Unicode scalar value`);
    }
    if (codePoint === newline) return refuse('the literal "\\n" is not allowed: the search is line by line');
    this.index += match[0].length;
    return hexEscape(codePoint);
  }

  /** `\pL` or `\p{Greek}`; Rust's bare script names become Script_Extensions. */
  private unicodeProperty(kind: string): string | Refusal {
    const rest = this.pattern.slice(this.index);
    const braced = /^\{([^}]*)\}/.exec(rest);
    const name = braced !== null ? (braced[1] ?? "").trim() : rest.slice(0, 1);
    if (name === "") return refuse(`\\${kind} needs a property name, such as \\${kind}{L}`);
    this.index += braced !== null ? braced[0].length : 1;
    const candidates = [name.replace(/\s*[:=]\s*/, "="), `Script_Extensions=${name}`];
    for (const candidate of candidates) {
      try {
        new RegExp(`\\p{${candidate}}`, "u");
        return candidate;
      } catch {}
    }
    return refuse(`unrecognized Unicode property ${name}`);
  }

  private characterClass(): Refusal | undefined {
    const negated = this.pattern[this.index] === "^";
    if (negated) this.index++;
    const body: string[] = [];
    // A "]" first in a class is a literal in Rust.
    if (this.pattern[this.index] === "]") {
      body.push(String.raw`\]`);
      this.index++;
    }
    for (;;) {
      this.skipVerbose();
      const char = this.pattern[this.index];
      if (char === undefined) return refuse("unclosed character class: missing ]");
      this.index++;
      if (char === "]") break;
      const item = this.classItem(char);
      if (typeof item !== "string") return item;
      body.push(item);
    }
    return this.emitClass(body.join(""), negated);
  }

  private classItem(char: string): string | Refusal {
    const next = this.pattern[this.index];
    if (char === "[") {
      const posix = /^:(\^?)([a-z]+):\]/.exec(this.pattern.slice(this.index));
      if (posix === null) return refuse("nested character classes are not supported by the built-in search");
      const members = posixClasses[posix[2] ?? ""];
      if (members === undefined) return refuse(`unrecognized POSIX class [:${posix[2]}:]`);
      if (posix[1] === "^")
        return refuse("negated POSIX classes such as [:^alpha:] are not supported by the built-in search");
      this.index += posix[0].length;
      return members;
    }
    if ((char === "&" || char === "~") && next === char) {
      return refuse("character class set operations (&&, --, ~~) are not supported by the built-in search");
    }
    if (char === "-" && next === "-") {
      return refuse("character class set operations (&&, --, ~~) are not supported by the built-in search");
    }
    if (char === "\n") return refuse("the pattern contains a line break; the search is line by line");
    if (char !== "\\") return char === "-" ? "-" : char;
    return this.classEscape();
  }

  private classEscape(): string | Refusal {
    const char = this.pattern[this.index];
    if (char === undefined) return refuse("the pattern ends with an unfinished escape \\");
    this.index++;
    switch (char) {
      case "d":
        return String.raw`\p{Nd}`;
      case "D":
        return String.raw`\P{Nd}`;
      case "w":
        return wordMembers;
      case "W":
        return refuse(
          "\\W inside a character class is not supported by the built-in search; use [^\\w…] instead",
        );
      case "s":
        return String.raw`\p{White_Space}`;
      case "S":
        return String.raw`\P{White_Space}`;
      case "p":
      case "P": {
        const property = this.unicodeProperty(char);
        return typeof property === "string" ? `\\${char}{${property}}` : property;
      }
      case "-":
        return String.raw`\-`;
      default:
        return this.literalEscape(char);
    }
  }

  /** A negated class leaves out "\n"; a positive one that holds it (a range, \s) is guarded. */
  private emitClass(body: string, negated: boolean): Refusal | undefined {
    if (negated) {
      this.out.push(`[^${body}\\n]`);
      return undefined;
    }
    const flags = this.ignoreCase ? "iu" : "u";
    let holdsNewline: boolean;
    try {
      holdsNewline = new RegExp(`[${body}]`, flags).test("\n");
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return refuse(`invalid character class [${body}]: ${message}`);
    }
    this.out.push(holdsNewline ? `(?:(?!\\n)[${body}])` : `[${body}]`);
    return undefined;
  }
}

function refuse(reason: string): Refusal {
  return { reason };
}

function hexEscape(codePoint: number): string {
  return `\\u{${codePoint.toString(16).toUpperCase()}}`;
}
