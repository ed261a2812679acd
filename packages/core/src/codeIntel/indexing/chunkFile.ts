import type { ParsedSymbol } from "../parsing/parseFile.js";

/** One searchable piece of a file. */
export interface Chunk {
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  /** The symbol the chunk is (or is part of); absent for text between symbols. */
  symbol?: string;
  kind?: string;
  /** Every symbol declared in the chunk, its own first: they weigh more in the search. */
  names: string[];
  text: string;
}

/** Text between symbols, and files without a grammar, are cut into windows of at most this many lines. */
export const windowLines = 60;
/** A symbol longer than this is split: into its members when it has some, into windows otherwise. */
const maxSymbolLines = 120;
/** Constants this short are part of the text around them rather than chunks of their own. */
const minVariableLines = 3;

interface Unit {
  symbol: ParsedSymbol;
  index: number;
  start: number;
  end: number;
}

interface Label {
  symbol?: string;
  kind?: string;
}

/**
 * Cuts a file into chunks: one per module-level symbol (with the comments above it), a large
 * class or module split into its members, and the text between symbols in windows. `symbols` is
 * undefined for a language without a grammar: the whole file is then windows.
 */
export function chunkFile(source: string, symbols: readonly ParsedSymbol[] | undefined): Chunk[] {
  const lines = source.split("\n");
  const chunker = new Chunker(lines, symbols ?? []);
  chunker.cover(1, lines.length, undefined, {});
  return chunker.chunks;
}

class Chunker {
  readonly chunks: Chunk[] = [];

  constructor(
    private readonly lines: readonly string[],
    private readonly symbols: readonly ParsedSymbol[],
  ) {}

  /** Chunks lines `from`..`to`: the units among `parent`'s children, and windows between them. */
  cover(from: number, to: number, parent: number | undefined, label: Label): void {
    let next = from;
    for (const unit of this.units(parent, from, to)) {
      if (unit.start > next) this.windows(next, unit.start - 1, label);
      this.unit(unit);
      next = unit.end + 1;
    }
    if (next <= to) this.windows(next, to, label);
  }

  private unit({ symbol, index, start, end }: Unit): void {
    const label = { symbol: symbol.name, kind: symbol.kind };
    if (end - start + 1 <= maxSymbolLines) {
      this.push(start, end, label);
    } else if (this.symbols.some((candidate) => candidate.parent === index)) {
      this.cover(start, end, index, label);
    } else {
      this.windows(start, end, label);
    }
  }

  /** `parent`'s children that make chunks, in order, clipped so that none overlaps the one before. */
  private units(parent: number | undefined, from: number, to: number): Unit[] {
    const units: Unit[] = [];
    let previousEnd = from - 1;
    this.symbols.forEach((symbol, index) => {
      if (symbol.parent !== parent || isSmallVariable(symbol)) return;
      const start = Math.max(symbol.leadingLine, previousEnd + 1, from);
      const end = Math.min(symbol.endLine, to);
      // Declared on a line an earlier symbol already took (`const a = 1, b = () => 2;`).
      if (start > end) return;
      units.push({ symbol, index, start, end });
      previousEnd = end;
    });
    return units;
  }

  /** Lines `from`..`to` in windows of at most `windowLines`, of even size; blank ones dropped. */
  private windows(from: number, to: number, label: Label): void {
    const count = Math.ceil((to - from + 1) / windowLines);
    const size = Math.ceil((to - from + 1) / count);
    for (let start = from; start <= to; start += size) {
      const end = Math.min(to, start + size - 1);
      if (this.hasWords(start, end)) this.push(start, end, label);
    }
  }

  private push(start: number, end: number, label: Label): void {
    const names = this.symbols
      .filter((symbol) => symbol.startLine >= start && symbol.startLine <= end)
      .map((symbol) => symbol.name);
    const chunk: Chunk = {
      startLine: start,
      endLine: end,
      names: label.symbol === undefined ? names : [label.symbol, ...names.filter((n) => n !== label.symbol)],
      text: this.lines.slice(start - 1, end).join("\n"),
    };
    if (label.symbol !== undefined) chunk.symbol = label.symbol;
    if (label.kind !== undefined) chunk.kind = label.kind;
    this.chunks.push(chunk);
  }

  private hasWords(start: number, end: number): boolean {
    for (let line = start; line <= end; line++) {
      if (/[\p{L}\p{N}]/u.test(this.lines[line - 1] ?? "")) return true;
    }
    return false;
  }
}

function isSmallVariable(symbol: ParsedSymbol): boolean {
  return symbol.kind === "variable" && symbol.endLine - symbol.startLine + 1 < minVariableLines;
}
