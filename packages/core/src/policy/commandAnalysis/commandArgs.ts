import type { StaticWord } from "./staticWords.js";

/** A word made by the analysis itself (xargs items, `{}` replacements), never dynamic. */
export function staticWord(value: string): StaticWord {
  return { value, dynamic: false, fromDownload: false };
}

/** How a command's options are spelled, for the generic GNU-style parser below. */
export interface OptionSpec {
  /** Short option letters that take a value (`-o FILE`, `-oFILE`). */
  shortWithValue?: string;
  /** Long option names (without `--`) that take a value (`--output FILE`, `--output=FILE`). */
  longWithValue?: readonly string[];
  /**
   * Options end at the first operand (POSIX style). GNU tools otherwise accept options after
   * operands (`rm / -rf` is `rm -rf /`), which is the default here.
   */
  stopAtOperand?: boolean;
}

export interface ParsedOption {
  /** A short option's letter, or a long option's name as written (possibly abbreviated). */
  name: string;
  long: boolean;
  value?: StaticWord;
}

export interface ParsedArgs {
  options: ParsedOption[];
  operands: StaticWord[];
  /** A word that could be an option or an operand, because its value is computed at run time. */
  dynamicWords: boolean;
}

export function parseArgs(args: readonly StaticWord[], spec: OptionSpec = {}): ParsedArgs {
  const parsed: ParsedArgs = { options: [], operands: [], dynamicWords: false };
  const shortWithValue = spec.shortWithValue ?? "";
  const longWithValue = spec.longWithValue ?? [];
  let i = 0;
  for (; i < args.length; i++) {
    const word = args[i];
    if (word === undefined) break;
    const v = word.value;
    if (word.dynamic) parsed.dynamicWords = true;
    if (word.dynamic || v === "-" || !v.startsWith("-")) {
      if (spec.stopAtOperand) break;
      parsed.operands.push(word);
      continue;
    }
    if (v === "--") {
      i++;
      break;
    }
    if (v.startsWith("--")) {
      const eq = v.indexOf("=");
      const name = eq === -1 ? v.slice(2) : v.slice(2, eq);
      const option: ParsedOption = { name, long: true };
      if (eq !== -1) option.value = { ...word, value: v.slice(eq + 1) };
      else if (longWithValue.some((long) => isLongSpelling(name, long))) {
        const next = args[i + 1];
        if (next !== undefined) option.value = next;
        i++;
      }
      parsed.options.push(option);
      continue;
    }
    for (let j = 1; j < v.length; j++) {
      const letter = v[j] ?? "";
      if (!shortWithValue.includes(letter)) {
        parsed.options.push({ name: letter, long: false });
        continue;
      }
      const attached = v.slice(j + 1);
      const option: ParsedOption = { name: letter, long: false };
      if (attached !== "") option.value = { ...word, value: attached };
      else {
        const next = args[i + 1];
        if (next !== undefined) option.value = next;
        i++;
      }
      parsed.options.push(option);
      break;
    }
  }
  for (; i < args.length; i++) {
    const word = args[i];
    if (word !== undefined) parsed.operands.push(word);
  }
  return parsed;
}

/**
 * getopt_long accepts any unambiguous prefix of a long option, down to one letter (`--r` for
 * `--recursive` when no other option of the command starts with `r`). Every prefix counts here:
 * without each command's full option list an ambiguous prefix cannot be told apart, and reading
 * one as the dangerous option only errs on the side of caution (getopt refuses ambiguous ones).
 */
export function isLongSpelling(written: string, full: string): boolean {
  return written.length > 0 && full.startsWith(written);
}

/** Whether a word spells the long option `--full` (alone or with `=value`), abbreviated or not. */
export function spellsLong(word: StaticWord, full: string): boolean {
  if (word.dynamic || !word.value.startsWith("--")) return false;
  const eq = word.value.indexOf("=");
  return isLongSpelling(word.value.slice(2, eq === -1 ? undefined : eq), full);
}

/** Whether an option is present, by short letter and/or long name. */
export function hasOption(parsed: ParsedArgs, short: string | undefined, long?: string): boolean {
  return parsed.options.some((o) =>
    o.long ? long !== undefined && isLongSpelling(o.name, long) : short?.includes(o.name) === true,
  );
}

export function optionValues(parsed: ParsedArgs, short: string | undefined, long?: string): StaticWord[] {
  const values: StaticWord[] = [];
  for (const o of parsed.options) {
    const matches = o.long
      ? long !== undefined && isLongSpelling(o.name, long)
      : short?.includes(o.name) === true;
    if (matches && o.value !== undefined) values.push(o.value);
  }
  return values;
}

/** A tool's subcommand (`git push`, `npm install`): the first operand, options before it parsed. */
export interface Subcommand {
  /** Undefined when there is none or it is computed at run time. */
  name: string | undefined;
  /** Options given before the subcommand (`git -C dir`, `npm -g`). */
  before: ParsedArgs;
  /** The words after the subcommand. */
  rest: StaticWord[];
}

export function splitSubcommand(args: readonly StaticWord[], spec: OptionSpec = {}): Subcommand {
  const before = parseArgs(args, { ...spec, stopAtOperand: true });
  const [first, ...rest] = before.operands;
  return {
    name: first === undefined || first.dynamic ? undefined : first.value,
    before: { ...before, operands: [] },
    rest,
  };
}

export function values(words: readonly StaticWord[]): string[] {
  return words.map((w) => w.value);
}
