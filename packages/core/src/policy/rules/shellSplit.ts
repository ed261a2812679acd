import { ansiQuoteEnd, decodeAnsiC, matchingBrace } from "./shellText.js";

/** One shell word as the shell would pass it to a program, as far as that can be known statically. */
export interface ShellWord {
  /** Quotes and escapes removed; expansions and substitutions kept as written (`$HOME`, `$(date)`). */
  value: string;
  /** Exactly as written. */
  raw: string;
  /** Holds an expansion, a substitution, a glob or a brace pattern: its run-time value is unknown. */
  dynamic: boolean;
  /** Holds an unquoted `*` (a glob in a command; the wildcard in a rule). */
  unquotedStar: boolean;
}

/** A simple command between operators (`&&`, `||`, `;`, `|`, `&`, newlines, parentheses). */
export interface CommandSegment {
  words: ShellWord[];
  /** Output goes to a file (`>`, `>>`, `&>`…), other than /dev/null or another descriptor. */
  writesFiles: boolean;
  /** Has any redirection at all. */
  redirects: boolean;
  /** As written, for messages. */
  text: string;
}

export interface SplitCommand {
  /** Top-level segments and, after them, the segments of every substitution inside (`$(…)`, `` `…` ``, `<(…)`). */
  segments: CommandSegment[];
  /** Top-level segments only. */
  topLevel: CommandSegment[];
  /** False when a quote, substitution or here-document is left open: words cannot be trusted. */
  complete: boolean;
}

/** Substitutions nested deeper than this are not followed; the command counts as incomplete. */
const maxDepth = 16;

/**
 * A small quote-aware splitter for permission rules: enough of bash's word rules to cut a command
 * line into simple commands and words, never to run or expand anything. Command analysis proper
 * (risk, hard blocks) uses a real bash parser; rules only need to know which programs a line starts,
 * and to refuse to vouch for what they cannot read.
 */
export function splitCommand(command: string): SplitCommand {
  const scanner = new Scanner(command, 0, false);
  scanner.run();
  return {
    segments: [...scanner.segments, ...scanner.nested],
    topLevel: scanner.segments,
    complete: scanner.complete,
  };
}

interface WordBuilder {
  value: string;
  raw: string;
  dynamic: boolean;
  unquotedStar: boolean;
  quoted: boolean;
  /** The unquoted characters only, to spot brace expansion. */
  unquoted: string;
}

type PendingTarget = "write" | "read" | "duplicate" | "heredoc" | "heredoc-strip";

interface PendingHeredoc {
  delimiter: string;
  stripTabs: boolean;
  expands: boolean;
}

const operatorChars = new Set([";", "&", "|", "\n"]);

class Scanner {
  readonly segments: CommandSegment[] = [];
  readonly nested: CommandSegment[] = [];
  complete = true;
  /** Index just past the closing parenthesis when scanning a substitution. */
  end: number;

  private index: number;
  private words: ShellWord[] = [];
  private word: WordBuilder | undefined;
  private writesFiles = false;
  private redirects = false;
  private segmentStart: number;
  private pendingTarget: PendingTarget | undefined;
  private heredocs: PendingHeredoc[] = [];
  private parenDepth = 0;

  constructor(
    private readonly text: string,
    start: number,
    /** Scanning `$(…)`: stop at the parenthesis that closes it. */
    private readonly untilCloseParen: boolean,
    private readonly depth = 0,
  ) {
    this.index = start;
    this.segmentStart = start;
    this.end = text.length;
  }

  run(): void {
    const { text } = this;
    while (this.index < text.length) {
      const char = text[this.index] ?? "";
      if (char === " " || char === "\t") {
        this.finishWord();
        this.index++;
      } else if (char === "\\") {
        this.escape();
      } else if (char === "'") {
        this.singleQuoted();
      } else if (char === '"') {
        this.doubleQuoted();
      } else if (char === "`") {
        this.backtick(this.current());
      } else if (char === "$") {
        this.dollar(this.current(), false);
      } else if (char === "#" && this.word === undefined) {
        while (this.index < text.length && text[this.index] !== "\n") this.index++;
      } else if ((char === "<" || char === ">") && text[this.index + 1] === "(") {
        this.index += 2;
        const inner = this.substitution();
        const word = this.current();
        word.dynamic = true;
        word.raw += `${char}(${inner})`;
        word.value += `${char}(${inner})`;
      } else if (char === "<" || char === ">" || (char === "&" && text[this.index + 1] === ">")) {
        this.redirection();
      } else if (char === "(") {
        this.parenDepth++;
        this.endSegment();
        this.index++;
        this.segmentStart = this.index;
      } else if (char === ")") {
        if (this.untilCloseParen && this.parenDepth === 0) {
          this.endSegment();
          this.end = this.index + 1;
          return;
        }
        this.parenDepth = Math.max(0, this.parenDepth - 1);
        this.endSegment();
        this.index++;
        this.segmentStart = this.index;
      } else if (operatorChars.has(char)) {
        this.operator(char);
      } else {
        this.plain(char);
      }
    }
    this.endSegment();
    if (this.untilCloseParen || this.heredocs.length > 0 || this.pendingTarget !== undefined) {
      this.complete = false;
    }
  }

  private current(): WordBuilder {
    this.word ??= { value: "", raw: "", dynamic: false, unquotedStar: false, quoted: false, unquoted: "" };
    return this.word;
  }

  private plain(char: string): void {
    const word = this.current();
    word.value += char;
    word.raw += char;
    word.unquoted += char;
    if (char === "*") word.unquotedStar = true;
    if (char === "*" || char === "?" || char === "[") word.dynamic = true;
    this.index++;
  }

  private escape(): void {
    const next = this.text[this.index + 1];
    if (next === undefined) {
      this.index++;
      return;
    }
    this.index += 2;
    // A backslash-newline joins lines and is not part of any word.
    if (next === "\n") return;
    const word = this.current();
    word.value += next;
    word.raw += `\\${next}`;
    word.quoted = true;
  }

  private singleQuoted(): void {
    const close = this.text.indexOf("'", this.index + 1);
    const word = this.current();
    word.quoted = true;
    if (close === -1) {
      this.complete = false;
      word.value += this.text.slice(this.index + 1);
      word.raw += this.text.slice(this.index);
      this.index = this.text.length;
      return;
    }
    word.value += this.text.slice(this.index + 1, close);
    word.raw += this.text.slice(this.index, close + 1);
    this.index = close + 1;
  }

  private doubleQuoted(): void {
    const { text } = this;
    const word = this.current();
    word.quoted = true;
    const start = this.index;
    this.index++;
    while (this.index < text.length) {
      const char = text[this.index] ?? "";
      if (char === '"') {
        this.index++;
        word.raw += text.slice(start, this.index);
        return;
      }
      if (char === "\\") {
        const next = text[this.index + 1] ?? "";
        if (next === "$" || next === "`" || next === '"' || next === "\\") word.value += next;
        else if (next !== "\n") word.value += `\\${next}`;
        this.index += 2;
      } else if (char === "$") {
        const before = word.raw;
        this.dollar(word, true);
        // dollar() appended its text to raw; the raw of the whole quoted part is set at the end.
        word.raw = before;
      } else if (char === "`") {
        const before = word.raw;
        this.backtick(word);
        word.raw = before;
      } else {
        word.value += char;
        this.index++;
      }
    }
    this.complete = false;
    word.raw += text.slice(start);
  }

  /** `$VAR`, `${…}`, `$(…)`, `$((…))`, `$'…'`, `$"…"`, or a lone dollar. */
  private dollar(word: WordBuilder, inDoubleQuotes: boolean): void {
    const { text } = this;
    const next = text[this.index + 1] ?? "";
    const start = this.index;
    if (next === "(") {
      this.index += 2;
      const inner = this.substitution();
      word.dynamic = true;
      word.value += `$(${inner})`;
    } else if (next === "{") {
      const close = matchingBrace(text, this.index + 2);
      const inner = text.slice(this.index + 2, close === -1 ? text.length : close);
      if (close === -1) this.complete = false;
      // `${x:-$(cmd)}` runs cmd: the inside is scanned for substitutions.
      this.scanForSubstitutions(inner);
      this.index = close === -1 ? text.length : close + 1;
      word.dynamic = true;
      word.value += text.slice(start, this.index);
    } else if (next === "'" && !inDoubleQuotes) {
      this.index++;
      const close = ansiQuoteEnd(text, this.index + 1);
      const body = text.slice(this.index + 1, close === -1 ? text.length : close);
      if (close === -1) this.complete = false;
      word.value += decodeAnsiC(body);
      word.quoted = true;
      this.index = close === -1 ? text.length : close + 1;
    } else if (next === '"' && !inDoubleQuotes) {
      // `$"…"` is a translated string: the same as a double-quoted one here.
      this.index++;
      word.raw += "$";
      this.doubleQuoted();
      return;
    } else if (/[A-Za-z0-9_@*#?$!-]/.test(next)) {
      this.index++;
      if (/[A-Za-z_]/.test(next)) {
        while (/[A-Za-z0-9_]/.test(text[this.index] ?? "")) this.index++;
      } else {
        this.index++;
      }
      word.dynamic = true;
      word.value += text.slice(start, this.index);
    } else {
      this.index++;
      word.value += "$";
      if (!inDoubleQuotes) word.unquoted += "$";
    }
    word.raw += text.slice(start, this.index);
  }

  /** `` `…` ``: the old command substitution, with its own backslash rules. */
  private backtick(word: WordBuilder): void {
    const { text } = this;
    const start = this.index;
    let inner = "";
    this.index++;
    for (;;) {
      const char = text[this.index];
      if (char === undefined) {
        this.complete = false;
        break;
      }
      if (char === "`") {
        this.index++;
        break;
      }
      if (char === "\\" && /[$`\\]/.test(text[this.index + 1] ?? "")) {
        inner += text[this.index + 1];
        this.index += 2;
        continue;
      }
      inner += char;
      this.index++;
    }
    this.addNested(inner);
    word.dynamic = true;
    word.value += text.slice(start, this.index);
    word.raw += text.slice(start, this.index);
  }

  /** Scans `$(…)` or `<(…)` from just inside the parenthesis; returns the inner text. */
  private substitution(): string {
    const start = this.index;
    if (this.depth >= maxDepth) {
      this.complete = false;
      this.index = this.text.length;
      return this.text.slice(start);
    }
    const inner = new Scanner(this.text, start, true, this.depth + 1);
    inner.run();
    this.absorb(inner);
    this.index = inner.end;
    return this.text.slice(start, Math.max(start, inner.end - 1));
  }

  private addNested(source: string): void {
    if (this.depth >= maxDepth) {
      this.complete = false;
      return;
    }
    const inner = new Scanner(source, 0, false, this.depth + 1);
    inner.run();
    this.absorb(inner);
  }

  /** Arithmetic and parameter expansions are not commands, but substitutions inside them are. */
  private scanForSubstitutions(source: string): void {
    if (!/\$\(|`|[<>]\(/.test(source)) return;
    if (this.depth >= maxDepth) {
      this.complete = false;
      return;
    }
    const inner = new Scanner(source, 0, false, this.depth + 1);
    inner.run();
    this.nested.push(...inner.nested);
    if (!inner.complete) this.complete = false;
  }

  private absorb(inner: Scanner): void {
    this.nested.push(...inner.segments, ...inner.nested);
    if (!inner.complete) this.complete = false;
  }

  private redirection(): void {
    const { text } = this;
    // `2>file`: digits written right before the operator name a descriptor, not an argument.
    if (this.word !== undefined && !this.word.quoted && /^\d+$/.test(this.word.raw)) this.word = undefined;
    else this.finishWord();
    this.redirects = true;
    const rest = text.slice(this.index, this.index + 3);
    const operators: [string, PendingTarget][] = [
      ["&>>", "write"],
      ["<<<", "read"],
      ["<<-", "heredoc-strip"],
      ["&>", "write"],
      [">>", "write"],
      [">|", "write"],
      [">&", "duplicate"],
      ["<&", "duplicate"],
      ["<>", "write"],
      ["<<", "heredoc"],
      [">", "write"],
      ["<", "read"],
    ];
    const [operator, target] = operators.find(([candidate]) => rest.startsWith(candidate)) ?? [">", "write"];
    this.index += operator.length;
    this.pendingTarget = target;
  }

  private operator(char: string): void {
    this.endSegment();
    const { text } = this;
    this.index++;
    // Two-character operators (`&&`, `||`, `;;`, `|&`) are separators like their first character.
    const next = text[this.index];
    if ((char === "&" || char === "|" || char === ";") && (next === char || next === "&")) this.index++;
    if (char === "\n") this.readHeredocBodies();
    this.segmentStart = this.index;
  }

  /** After a line with `<<WORD`, the lines up to WORD are data, not commands. */
  private readHeredocBodies(): void {
    const { text } = this;
    while (this.heredocs.length > 0) {
      const heredoc = this.heredocs.shift();
      if (heredoc === undefined) break;
      let found = false;
      while (this.index < text.length) {
        const lineEnd = text.indexOf("\n", this.index);
        const stop = lineEnd === -1 ? text.length : lineEnd;
        const line = text.slice(this.index, stop);
        this.index = lineEnd === -1 ? text.length : lineEnd + 1;
        if ((heredoc.stripTabs ? line.replace(/^\t+/, "") : line) === heredoc.delimiter) {
          found = true;
          break;
        }
        // An unquoted delimiter lets `$(…)` in the body run.
        if (heredoc.expands) this.scanForSubstitutions(line);
      }
      if (!found) this.complete = false;
    }
  }

  private finishWord(): void {
    const builder = this.word;
    if (builder === undefined) return;
    this.word = undefined;
    const pending = this.pendingTarget;
    if (pending !== undefined) {
      this.pendingTarget = undefined;
      this.redirectTarget(pending, builder);
      return;
    }
    // `{a,b}` and `{1..3}` become several words.
    const braces = /\{[^{}]*(,|\.\.)[^{}]*\}/.test(builder.unquoted);
    this.words.push({
      value: builder.value,
      raw: builder.raw,
      dynamic: builder.dynamic || braces,
      unquotedStar: builder.unquotedStar,
    });
  }

  private redirectTarget(kind: PendingTarget, target: WordBuilder): void {
    if (kind === "heredoc" || kind === "heredoc-strip") {
      this.heredocs.push({
        delimiter: target.value,
        stripTabs: kind === "heredoc-strip",
        expands: !target.quoted,
      });
      return;
    }
    if (kind === "read") return;
    if (kind === "duplicate" && /^(\d+-?|-)$/.test(target.value)) return;
    if (!target.dynamic && target.value === "/dev/null") return;
    this.writesFiles = true;
  }

  private endSegment(): void {
    this.finishWord();
    // An operator with nothing after it (`echo >; ls`) is a syntax error the shell refuses.
    if (this.pendingTarget !== undefined) {
      this.pendingTarget = undefined;
      this.complete = false;
    }
    if (this.words.length > 0) {
      this.segments.push({
        words: this.words,
        writesFiles: this.writesFiles,
        redirects: this.redirects,
        text: this.text.slice(this.segmentStart, this.index).trim(),
      });
    }
    this.words = [];
    this.writesFiles = false;
    this.redirects = false;
  }
}
