import path from "node:path";
import { sensitivePathMatch } from "../sensitivePaths.js";
import type { PathContext } from "./pathClasses.js";
import { resolveLocation } from "./shellLocation.js";
import type { StaticWord } from "./staticWords.js";
import { type Verdict, verdict } from "./verdict.js";

/**
 * Commands whose words are never file paths (messages, names, patterns, signals). Everything else
 * may read or write its operands, so a sensitive file among them is critical, as it is for the
 * file tools (SPEC §5): `cat .env`, `cp x .git/hooks/pre-commit`, `curl -d @.env …`.
 */
const nonPathCommands = new Set([
  "echo",
  "printf",
  "which",
  "whereis",
  "type",
  "command",
  "man",
  "info",
  "help",
  "test",
  "[",
  "expr",
  "seq",
  "sleep",
  "kill",
  "pkill",
  "killall",
  "export",
  "unset",
  "set",
  "shopt",
  "declare",
  "local",
  "readonly",
  "typeset",
  "alias",
  "unalias",
  "trap",
  "date",
  "true",
  "false",
  ":",
  "id",
  "groups",
  "uname",
  "getconf",
  "locale",
  "printenv",
  "numfmt",
  "cd",
  "pushd",
  "git",
  "npm",
  "npx",
  "pnpm",
  "yarn",
  "bun",
  "pip",
  "pip3",
  "uv",
  "cargo",
  "go",
]);

/** Their first operand is a pattern or program, not a file, unless one is given as an option. */
const patternFirst = new Set([
  "grep",
  "egrep",
  "fgrep",
  "zgrep",
  "rg",
  "ag",
  "ack",
  "sed",
  "awk",
  "gawk",
  "mawk",
  "nawk",
  "jq",
]);
const patternOptions = /^(-[A-Za-z]*[ef]|--(regexp|file|expression)(=.*)?)$/;

/** Judges a command's words against the sensitive-path list; undefined when none is sensitive. */
export function judgeSensitiveOperands(
  name: string,
  args: readonly StaticWord[],
  ctx: PathContext,
): Verdict | undefined {
  if (name === "find") return judgeStartPoints(args, ctx);
  if (nonPathCommands.has(name)) return undefined;
  let skipPattern = patternFirst.has(name) && !args.some((w) => !w.dynamic && patternOptions.test(w.value));
  for (const word of args) {
    const candidate = pathCandidate(word);
    if (candidate === undefined) continue;
    if (skipPattern && !word.value.startsWith("-")) {
      skipPattern = false;
      continue;
    }
    const match = sensitiveMatch(candidate, ctx);
    if (match !== undefined) return sensitiveVerdict(`${name} uses`, candidate, match);
  }
  return undefined;
}

/** find's starting points are paths; the rest of its words are an expression (`-name .env`). */
function judgeStartPoints(args: readonly StaticWord[], ctx: PathContext): Verdict | undefined {
  for (const word of args) {
    if (/^[-(!]/.test(word.value)) {
      if (/^-([HLP]+|O\d*)$/.test(word.value)) continue;
      return undefined;
    }
    const match = sensitiveMatch(word.value, ctx);
    if (match !== undefined) return sensitiveVerdict("find searches", word.value, match);
  }
  return undefined;
}

/** Judges one path a redirect opens, for reading or writing. */
export function judgeSensitiveTarget(
  target: StaticWord,
  ctx: PathContext,
  what: string,
): Verdict | undefined {
  const match = sensitiveMatch(target.value, ctx);
  return match === undefined ? undefined : sensitiveVerdict(what, target.value, match);
}

function sensitiveVerdict(what: string, shown: string, match: string): Verdict {
  return verdict("critical", `${what} ${shown}: a sensitive file (${match})`);
}

/** The path in a word: the word itself, an option's `=value`, or a curl-style `@file`. */
function pathCandidate(word: StaticWord): string | undefined {
  const v = word.value;
  if (v === "" || v === "-" || v === "--") return undefined;
  if (v.startsWith("-")) {
    const eq = v.indexOf("=");
    return eq === -1 ? undefined : stripAt(v.slice(eq + 1));
  }
  return stripAt(v);
}

function stripAt(value: string): string | undefined {
  const stripped = value.startsWith("@") ? value.slice(1) : value;
  return stripped === "" ? undefined : stripped;
}

/** `$LATHE_HOME` or `${LATHE_HOME}` left unexpanded: Lathe's own directory, wherever it is. */
const unknownLatheHome = /^\$\{?LATHE_HOME\b/;

/** Where the word points, as absolute as the analysis knows, then the shared sensitive-path list. */
function sensitiveMatch(value: string, ctx: PathContext): string | undefined {
  if (unknownLatheHome.test(value)) return "$LATHE_HOME";
  return sensitivePathMatch(placed(value, ctx), { projectRoot: ctx.projectRoot, latheHome: ctx.latheHome });
}

function placed(value: string, ctx: PathContext): string {
  const location = resolveLocation(value, ctx.cwd);
  switch (location.base) {
    case "absolute":
      return location.path;
    case "home":
      return ctx.homeDir === undefined
        ? `~/${location.rel}`
        : path.posix.join(ctx.homeDir, location.rel || ".");
    case "project":
      return ctx.projectRoot === undefined
        ? location.rel || "."
        : path.posix.join(ctx.projectRoot, location.rel || ".");
    case "unknown":
      return value;
  }
}
