import path from "node:path";
import { type CommandSegment, type ShellWord, splitCommand } from "./shellSplit.js";

/** Shell keywords that open or close a compound command; the command proper follows them. */
const structuralKeywords = new Set([
  "!",
  "{",
  "}",
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "do",
  "done",
  "while",
  "until",
  "time",
]);

/** One simple command as rules see it. */
export interface RuleSegment {
  words: ShellWord[];
  /** Whether an allow rule may vouch for it at all. */
  allowable: boolean;
  text: string;
}

export interface CommandForRules {
  segments: RuleSegment[];
  /** Every segment could be read: allow rules may vouch for the whole line. */
  complete: boolean;
}

/**
 * Cuts a command line into the simple commands rules judge: every segment of lists and pipelines
 * and of every substitution inside, with leading keywords (`if`, `then`, `{`, `!`…) removed.
 */
export function commandForRules(command: string): CommandForRules {
  const split = splitCommand(command);
  const segments: RuleSegment[] = [];
  for (const segment of split.segments) {
    const words = withoutKeywords(segment.words);
    if (words.length === 0) continue;
    segments.push({ words, allowable: allowable(segment, words), text: segment.text });
  }
  return { segments, complete: split.complete };
}

function withoutKeywords(words: readonly ShellWord[]): ShellWord[] {
  let start = 0;
  while (start < words.length) {
    const word = words[start];
    if (word === undefined || word.raw !== word.value || !structuralKeywords.has(word.value)) break;
    start++;
    // `time -p cmd`
    if (word.value === "time" && words[start]?.value === "-p") start++;
  }
  return words.slice(start);
}

/**
 * An allow rule vouches for a program and its arguments, not for what the line does besides:
 * output written to files, or a program chosen at run time (`$CMD`, `$(…)`, globs), are left to
 * the risk decision.
 */
function allowable(segment: CommandSegment, words: readonly ShellWord[]): boolean {
  if (segment.writesFiles) return false;
  const program = words[0];
  return program !== undefined && !program.dynamic;
}

/** Programs that run the command in their arguments. */
const wrappers = new Set([
  "sudo",
  "doas",
  "env",
  "command",
  "builtin",
  "exec",
  "nohup",
  "nice",
  "ionice",
  "timeout",
  "stdbuf",
  "xargs",
  "time",
  "caffeinate",
]);
/** Options of wrappers that take a value as the next word. */
const optionsWithValue: Record<string, ReadonlySet<string>> = {
  sudo: new Set(["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T"]),
  doas: new Set(["-u", "-C"]),
  env: new Set(["-u", "-C", "-S", "--unset", "--chdir"]),
  nice: new Set(["-n", "--adjustment"]),
  ionice: new Set(["-c", "-n", "-p"]),
  timeout: new Set(["-s", "-k", "--signal", "--kill-after"]),
  stdbuf: new Set(["-i", "-o", "-e"]),
  xargs: new Set(["-I", "-n", "-P", "-L", "-d", "-E", "-s", "-a", "--arg-file", "--delimiter"]),
};
const shells = new Set(["sh", "bash", "zsh", "dash", "ksh", "fish"]);
/** Nesting of `bash -c '…'` followed; deeper strings are not read. */
const maxInlineDepth = 4;

/**
 * Every form of a segment a deny or ask rule should see: as written; without leading variable
 * assignments; with wrappers removed (`sudo rm -rf x` is also `rm -rf x`); with the program's
 * directory removed (`/bin/rm` is also `rm`); and the commands inside `bash -c '…'` and `eval`.
 * Deny rules are meant to hold, so they look through these disguises; allow rules never do.
 */
export function denyForms(words: readonly string[], depth = 0): string[][] {
  const forms: string[][] = [[...words]];
  let current = [...words];
  for (let guard = 0; guard < 8 && current.length > 0; guard++) {
    const unwrapped = unwrapOnce(current, depth);
    if (unwrapped === undefined) break;
    forms.push(...unwrapped.extra);
    if (unwrapped.words.length === 0) break;
    current = unwrapped.words;
    forms.push(current);
  }
  for (const form of [...forms]) {
    const program = form[0];
    if (program?.includes("/")) forms.push([path.posix.basename(program), ...form.slice(1)]);
  }
  return forms;
}

function unwrapOnce(
  words: readonly string[],
  depth: number,
): { words: string[]; extra: string[][] } | undefined {
  const [program, ...rest] = words;
  if (program === undefined) return undefined;
  if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(program)) {
    let index = 0;
    while (index < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[index] ?? "")) index++;
    return { words: words.slice(index), extra: [] };
  }
  const name = path.posix.basename(program);
  if (name === "eval") return { words: [], extra: inlineForms(rest.join(" "), depth) };
  if (shells.has(name)) {
    const flag = rest.findIndex((word) => /^-[A-Za-z]*c[A-Za-z]*$/.test(word));
    const script = flag === -1 ? undefined : rest[flag + 1];
    return script === undefined ? undefined : { words: [], extra: inlineForms(script, depth) };
  }
  if (!wrappers.has(name)) return undefined;
  const valued = optionsWithValue[name];
  let index = 0;
  while (index < rest.length) {
    const word = rest[index] ?? "";
    if (name === "env" && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) index++;
    else if (word === "--") {
      index++;
      break;
    } else if (word.startsWith("-")) index += valued?.has(word) ? 2 : 1;
    else if (name === "timeout" && /^\d/.test(word)) index++;
    else break;
  }
  return { words: rest.slice(index), extra: [] };
}

function inlineForms(script: string, depth: number): string[][] {
  if (depth >= maxInlineDepth) return [];
  return commandForRules(script).segments.flatMap((segment) =>
    denyForms(
      segment.words.map((word) => word.value),
      depth + 1,
    ),
  );
}
