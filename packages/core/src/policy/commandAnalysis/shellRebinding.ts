import { parseArgs } from "./commandArgs.js";
import type { ShellState } from "./shellState.js";
import type { StaticWord } from "./staticWords.js";
import { type Verdict, verdict } from "./verdict.js";

/**
 * Records the names a command rebinds for the rest of the line: `alias ls='rm -rf'` (which bash
 * expands once `expand_aliases` is on) and `hash -p /bin/rm ls`. Later uses of such a name are
 * judged as what they stand for as well as what they say. Defining one that takes effect is at
 * least high: a familiar name stops meaning what it says.
 */
export function recordRebinding(argv: readonly StaticWord[], state: ShellState): Verdict | undefined {
  const [name, ...args] = argv;
  if (name === undefined || name.dynamic) return undefined;
  if (
    name.value === "shopt" &&
    args.some((w) => w.value === "-s") &&
    args.some((w) => w.value === "expand_aliases")
  ) {
    state.expandAliases = true;
    return verdict("medium", "shopt -s expand_aliases lets aliases change what names run");
  }
  if (name.value === "alias") {
    let defined = false;
    for (const word of args) {
      const eq = word.value.indexOf("=");
      if (word.dynamic || eq <= 0) continue;
      state.rebound.set(word.value.slice(0, eq), word.value.slice(eq + 1));
      defined = true;
    }
    return defined && state.expandAliases ? verdict("high", "alias makes a name run other code") : undefined;
  }
  if (name.value === "hash") {
    const parsed = parseArgs(args, { shortWithValue: "p" });
    const program = parsed.options.find((o) => o.name === "p")?.value;
    if (program === undefined) return undefined;
    for (const target of parsed.operands)
      if (!target.dynamic) state.rebound.set(target.value, quoted(program));
    return verdict("high", `hash -p makes a name run ${program.value}`);
  }
  return undefined;
}

/** The shell text a command stands for when its name was rebound earlier; undefined otherwise. */
export function reboundText(argv: readonly StaticWord[], state: ShellState): string | undefined {
  const [name, ...args] = argv;
  if (name === undefined || name.dynamic) return undefined;
  const text = state.rebound.get(name.value);
  if (text === undefined) return undefined;
  return [text, ...args.map(quoted)].join(" ");
}

/** A static word single-quoted; a dynamic one keeps its source text, as bash would expand it. */
function quoted(word: StaticWord): string {
  return word.dynamic ? word.value : `'${word.value.replaceAll("'", `'\\''`)}'`;
}
