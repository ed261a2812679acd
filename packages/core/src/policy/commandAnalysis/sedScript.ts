/**
 * Whether a sed script only prints: no `w`/`W` (write a file), no `e` (run a command), no `s///w`
 * or `s///e` flags. Anything this small parser does not understand counts as not read-only.
 */
export function sedScriptIsReadOnly(script: string): boolean {
  const s = new SedCursor(script);
  while (!s.done()) {
    s.skipSeparators();
    if (s.done()) break;
    if (!s.skipAddresses()) return false;
    const command = s.next();
    if (!skipCommand(command, s)) return false;
  }
  return true;
}

/** Consumes one command's arguments; false when the command writes, executes or is unknown. */
function skipCommand(command: string, s: SedCursor): boolean {
  switch (command) {
    case "{":
    case "}":
    case "=":
    case "d":
    case "D":
    case "g":
    case "G":
    case "h":
    case "H":
    case "l":
    case "n":
    case "N":
    case "p":
    case "P":
    case "x":
    case "z":
    case "F":
      return true;
    case "#":
    case "a":
    case "i":
    case "c":
    case "r":
    case "R":
    case ":":
      s.skipLine();
      return true;
    case "b":
    case "t":
    case "T":
    case "q":
    case "Q":
    case "L":
    case "v":
      s.skipUntil(";\n}");
      return true;
    case "y":
      return s.skipDelimited(2);
    case "s": {
      if (!s.skipDelimited(2)) return false;
      const flags = s.takeUntil(";\n}");
      return !/[we]/.test(flags);
    }
    default:
      return false;
  }
}

class SedCursor {
  private at = 0;
  constructor(private readonly text: string) {}

  done(): boolean {
    return this.at >= this.text.length;
  }

  next(): string {
    return this.text[this.at++] ?? "";
  }

  private peek(): string {
    return this.text[this.at] ?? "";
  }

  skipSeparators(): void {
    while (!this.done() && /[\s;]/.test(this.peek())) this.at++;
  }

  skipSpaces(): void {
    while (!this.done() && /[ \t]/.test(this.peek())) this.at++;
  }

  skipLine(): void {
    while (!this.done() && this.peek() !== "\n") {
      if (this.peek() === "\\") this.at++;
      this.at++;
    }
  }

  skipUntil(stops: string): void {
    this.takeUntil(stops);
  }

  takeUntil(stops: string): string {
    const start = this.at;
    while (!this.done() && !stops.includes(this.peek())) this.at++;
    return this.text.slice(start, this.at);
  }

  /** Skips `parts` delimiter-separated parts (`s/a/b/` has 2 after the command letter). */
  skipDelimited(parts: number): boolean {
    const delimiter = this.next();
    if (delimiter === "" || delimiter === "\n" || delimiter === "\\") return false;
    for (let part = 0; part < parts; part++) {
      while (!this.done() && this.peek() !== delimiter) {
        if (this.peek() === "\\") this.at++;
        this.at++;
      }
      if (this.done()) return false;
      this.at++;
    }
    return true;
  }

  /** Skips `1`, `$`, `/re/I`, `\%re%`, `1,5`, `1~2`, `/a/,+3` and a trailing `!`. */
  skipAddresses(): boolean {
    for (let count = 0; count < 2; count++) {
      if (!this.skipAddress()) return false;
      this.skipSpaces();
      if (count === 0 && this.peek() === ",") {
        this.at++;
        this.skipSpaces();
        continue;
      }
      break;
    }
    this.skipSpaces();
    while (this.peek() === "!") {
      this.at++;
      this.skipSpaces();
    }
    return true;
  }

  private skipAddress(): boolean {
    const c = this.peek();
    if (/[0-9+~$]/.test(c)) {
      this.at++;
      while (/[0-9~]/.test(this.peek())) this.at++;
      return true;
    }
    if (c === "/" || c === "\\") {
      if (c === "\\") this.at++;
      if (!this.skipDelimited(1)) return false;
      while (/[IM]/.test(this.peek())) this.at++;
    }
    return true;
  }
}
