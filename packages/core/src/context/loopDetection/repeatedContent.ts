/** Rolling hash of the current chunk: base and modulus small enough that every step stays exact in a double. */
const base = 257;
const modulus = 1_000_000_007;
const wordChar = /[\p{L}\p{N}]/u;

export interface RepeatedContentSettings {
  chunkLength: number;
  count: number;
  maxPeriod: number;
}

/** Evenly spaced copies of one chunk: where the run starts, the latest copy, the spacing. */
interface CopyRun {
  first: number;
  last: number;
  period: number;
  copies: number;
}

/**
 * Finds an answer that repeats itself. Every chunk of `chunkLength` characters is hashed as the
 * text grows, and evenly spaced copies of a chunk are followed. The alarm is raised when a chunk
 * has `count` copies at most `maxPeriod` apart, covering at least `count` chunk lengths (so a
 * sentence shorter than the chunk still has to come about `count` times), and the text from the
 * first copy to the last is one stretch repeated over and over. A phrase that recurs among
 * different text (a path in each item of a list) therefore never counts; only text that literally
 * loops does. Chunks without a letter or digit (rules, dots, separators) are ignored.
 */
export class RepeatedContent {
  private readonly codes: number[] = [];
  private readonly runs = new Map<number, CopyRun>();
  private readonly topPower: number;
  private hash = 0;
  private wordChars = 0;

  constructor(private readonly settings: RepeatedContentSettings) {
    let power = 1;
    for (let i = 1; i < settings.chunkLength; i++) power = (power * base) % modulus;
    this.topPower = power;
  }

  /** Adds one character; returns the repeated chunk once the answer has looped. */
  push(code: number): string | undefined {
    const { chunkLength, count, maxPeriod } = this.settings;
    const codes = this.codes;
    codes.push(code);
    const end = codes.length;
    if (end > chunkLength) {
      const out = codes[end - 1 - chunkLength]!;
      this.hash = (this.hash - ((out * this.topPower) % modulus) + modulus) % modulus;
      if (isWordChar(out)) this.wordChars--;
    }
    this.hash = (this.hash * base + code) % modulus;
    if (isWordChar(code)) this.wordChars++;
    if (end % maxPeriod === 0) this.forgetOlderThan(end - maxPeriod - chunkLength);
    if (end < chunkLength || this.wordChars === 0) return undefined;

    const start = end - chunkLength;
    const run = this.runs.get(this.hash);
    if (!run) {
      this.runs.set(this.hash, { first: start, last: start, period: 0, copies: 1 });
      return undefined;
    }
    const gap = start - run.last;
    if (gap > maxPeriod) {
      restart(run, start);
      return undefined;
    }
    if (run.copies > 1 && gap !== run.period) {
      // The spacing changed: the run now starts at the previous copy.
      run.first = run.last;
      run.copies = 1;
    }
    run.period = gap;
    run.last = start;
    run.copies++;
    if (run.copies < count || end - run.first < count * chunkLength) return undefined;
    if (this.periodic(run.first, end, run.period)) return String.fromCodePoint(...codes.slice(start, end));
    restart(run, start);
    return undefined;
  }

  /** Copies this old cannot continue a run within `maxPeriod`; dropping them bounds memory. */
  private forgetOlderThan(position: number): void {
    for (const [hash, run] of this.runs) {
      if (run.last < position) this.runs.delete(hash);
    }
  }

  /** Whether text[from, to) repeats with the given period (which also rules out hash collisions). */
  private periodic(from: number, to: number, period: number): boolean {
    for (let at = from; at + period < to; at++) {
      if (this.codes[at] !== this.codes[at + period]) return false;
    }
    return true;
  }
}

function restart(run: CopyRun, start: number): void {
  run.first = start;
  run.last = start;
  run.period = 0;
  run.copies = 1;
}

function isWordChar(code: number): boolean {
  if (code < 128) {
    return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
  }
  return wordChar.test(String.fromCodePoint(code));
}
