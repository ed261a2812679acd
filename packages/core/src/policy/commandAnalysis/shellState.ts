import { changeDirectory, type ShellLocation } from "./shellLocation.js";
import type { StaticWord } from "./staticWords.js";

/** What the shell knows while the walk goes through the script, statement by statement. */
export interface ShellState {
  cwd: ShellLocation;
  /** Static values of variables; a name mapped to undefined is known to be unknown. */
  vars: Map<string, string | undefined>;
  functions: Set<string>;
  /** Inside a branch, loop or `&&`/`||` right side: what happens here may not happen. */
  conditional: boolean;
  /** Inside `$(…)`, backticks or `<(…)`, whose output becomes part of another command. */
  substituting: boolean;
}

export function cloneState(state: ShellState, conditional = state.conditional): ShellState {
  return { ...state, vars: new Map(state.vars), functions: new Set(state.functions), conditional };
}

/**
 * After a branch or loop, what it may have changed is no longer known for sure. Functions it
 * defined are not carried out: a call to one afterwards is judged as an unknown command.
 */
export function mergeConditional(outer: ShellState, inner: ShellState): void {
  if (JSON.stringify(inner.cwd) !== JSON.stringify(outer.cwd)) outer.cwd = { base: "unknown" };
  for (const [name, value] of inner.vars) {
    if (!outer.vars.has(name) || outer.vars.get(name) !== value) outer.vars.set(name, undefined);
  }
}

/**
 * A variable's value: assigned earlier in the command line, or `$HOME` (home, so `rm -rf $HOME`
 * is recognised) and `$PWD` (the current directory). Everything else is unknown.
 */
export function variableValue(name: string, state: ShellState): string | undefined {
  if (state.vars.has(name)) return state.vars.get(name);
  if (name === "HOME") return "~";
  if (name === "PWD") return locationText(state.cwd);
  return undefined;
}

function locationText(location: ShellLocation): string | undefined {
  switch (location.base) {
    case "absolute":
      return location.path;
    case "home":
      return location.rel === "" ? "~" : `~/${location.rel}`;
    case "project":
      return location.rel === "" ? "." : location.rel;
    case "unknown":
      return undefined;
  }
}

/** Follows `cd`/`pushd` so that `cd / && rm -rf *` is judged as `rm -rf /*`. */
export function followDirectoryChange(argv: readonly StaticWord[], state: ShellState): void {
  const name = argv[0];
  if (name === undefined || name.dynamic) return;
  if (name.value === "popd") {
    state.cwd = { base: "unknown" };
    return;
  }
  if (name.value !== "cd" && name.value !== "pushd") return;
  const target = argv.slice(1).find((w) => w.dynamic || !/^-[LPe@]+$/.test(w.value));
  if (target?.dynamic) state.cwd = { base: "unknown" };
  else state.cwd = changeDirectory(state.cwd, target?.value);
}
