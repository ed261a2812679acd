import type { CountTokens } from "./contextText.js";

/** Between two sections of the block. */
export const sectionSeparator = "\n\n";

export interface ContextSection {
  /** The source it came from: open_files, cursor_context, linter_errors, terminal, recent_edits, search_results, notes. */
  source: string;
  text: string;
  /** Files, lines, problems or results it holds. */
  items: number;
  /** Relative paths of the files whose text it shows. */
  files: readonly string[];
}

export interface AssembledContext {
  text: string;
  tokens: number;
  sources: { name: string; tokens: number; items: number }[];
  files: string[];
}

/**
 * Collects sections in priority order against one token budget. Each section is charged with its
 * separator as it is added, so later sources see what is really left; `finish` then counts the
 * joined text once more, because a tokenizer need not count a whole as the sum of its parts.
 */
export class ContextAssembly {
  private readonly sections: ContextSection[] = [];
  private used = 0;

  constructor(
    readonly budgetTokens: number,
    private readonly countTokens: CountTokens,
  ) {}

  /** Tokens a section may still take, its separator already paid for. */
  get remaining(): number {
    return Math.max(0, this.budgetTokens - this.used - this.separatorCost());
  }

  fits(text: string): boolean {
    return this.countTokens(text) <= this.remaining;
  }

  /** Adds the section when it fits; false (and nothing added) when it does not. */
  add(section: ContextSection): boolean {
    const cost = this.separatorCost() + this.countTokens(section.text);
    if (this.used + cost > this.budgetTokens) return false;
    this.used += cost;
    this.sections.push(section);
    return true;
  }

  private separatorCost(): number {
    return this.sections.length > 0 ? this.countTokens(sectionSeparator) : 0;
  }

  /** The block, dropping the lowest-priority sections while the whole still counts over budget. */
  finish(): AssembledContext {
    const kept = [...this.sections];
    let text = kept.map((section) => section.text).join(sectionSeparator);
    let tokens = this.countTokens(text);
    while (tokens > this.budgetTokens && kept.length > 0) {
      kept.pop();
      text = kept.map((section) => section.text).join(sectionSeparator);
      tokens = this.countTokens(text);
    }
    return { text, tokens, sources: summarize(kept, this.countTokens), files: filesOf(kept) };
  }
}

function summarize(
  sections: readonly ContextSection[],
  countTokens: CountTokens,
): AssembledContext["sources"] {
  const bySource = new Map<string, { name: string; tokens: number; items: number }>();
  for (const section of sections) {
    const entry = bySource.get(section.source) ?? { name: section.source, tokens: 0, items: 0 };
    entry.tokens += countTokens(section.text);
    entry.items += section.items;
    bySource.set(section.source, entry);
  }
  return [...bySource.values()];
}

function filesOf(sections: readonly ContextSection[]): string[] {
  return [...new Set(sections.flatMap((section) => section.files))];
}
