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
  /** Variables set from data we cannot see (`read`, `x=$(…)`): hostile text could be in them. */
  runtime: Set<string>;
  /**
   * Command names that now run something else: aliases (`alias ls='rm -rf'`) and `hash -p
   * /bin/rm ls`, mapped to the shell text they stand for.
   */
  rebound: Map<string, string>;
  /** Variables declared integer (`declare -i`): every value assigned to them is arithmetic. */
  integers: Set<string>;
  /** `shopt -s expand_aliases` ran: alias definitions take effect on later lines. */
  expandAliases: boolean;
}

export function initialState(cwd: ShellLocation): ShellState {
  return {
    cwd,
    vars: new Map(),
    functions: new Set(),
    conditional: false,
    substituting: false,
    runtime: new Set(),
    rebound: new Map(),
    integers: new Set(),
    expandAliases: false,
  };
}

export function cloneState(state: ShellState, conditional = state.conditional): ShellState {
  return {
    ...state,
    vars: new Map(state.vars),
    functions: new Set(state.functions),
    runtime: new Set(state.runtime),
    rebound: new Map(state.rebound),
    integers: new Set(state.integers),
    conditional,
  };
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
  for (const name of inner.runtime) outer.runtime.add(name);
  // A name rebound on one path may be rebound afterwards; keeping it judges both readings.
  for (const [name, text] of inner.rebound) outer.rebound.set(name, text);
  outer.expandAliases ||= inner.expandAliases;
  for (const name of inner.integers) outer.integers.add(name);
}

/**
 * A variable's value: assigned earlier in the command line, or `$HOME` (home, so `rm -rf $HOME`
 * is recognised), `$PWD` (the current directory) and `$LATHE_HOME` when known. Everything else is
 * unknown.
 */
export function variableValue(name: string, state: ShellState, latheHome?: string): string | undefined {
  if (state.vars.has(name)) return state.vars.get(name);
  if (name === "LATHE_HOME") return latheHome;
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
