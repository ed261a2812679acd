import path from "node:path";
import { isWithin } from "../pathGuard.js";
import type { CallSubjects } from "../policyTypes.js";
import { isSensitivePath } from "../sensitivePaths.js";
import { commandForRules } from "./commandSegments.js";
import { ruleShapeOf } from "./ruleShapes.js";
import { parseRule } from "./ruleSyntax.js";
import type { ShellWord } from "./shellSplit.js";

export type ApprovalRule =
  /** One rule per subject: each segment of a compound command, each path. */
  | { ok: true; rules: string[] }
  /** "Always" cannot be offered for this call; approving it once still can. */
  | { ok: false; reason: string };

export interface ApprovalRuleOptions {
  /** Needed to write paths relative to the project and to spot sensitive ones. */
  projectRoot?: string;
  latheHome?: string;
  /** The policy hard-blocked the call: nothing may be derived from it. */
  blocked?: boolean;
}

/** Programs whose real command is in their arguments: a prefix rule on them would allow anything. */
const runsItsArguments = new Set([
  "eval",
  "exec",
  "source",
  ".",
  "sudo",
  "doas",
  "su",
  "env",
  "command",
  "builtin",
  "xargs",
  "nohup",
  "nice",
  "timeout",
  "stdbuf",
  "time",
  "watch",
]);
/** Interpreters, and the options that hand them code to run inline. */
const inlineCodeOptions: Record<string, ReadonlySet<string>> = {
  sh: new Set(["-c"]),
  bash: new Set(["-c"]),
  zsh: new Set(["-c"]),
  dash: new Set(["-c"]),
  ksh: new Set(["-c"]),
  fish: new Set(["-c", "--command"]),
  python: new Set(["-c"]),
  python3: new Set(["-c"]),
  node: new Set(["-e", "--eval", "-p", "--print"]),
  deno: new Set(["eval"]),
  bun: new Set(["-e", "--eval"]),
  perl: new Set(["-e", "-E"]),
  ruby: new Set(["-e"]),
  php: new Set(["-r"]),
};

/**
 * The rule "always allow" saves for a call (SPEC §5), shown to the user before it is saved. For a
 * command, one rule per segment of a compound command, naming the program and its action words:
 * `npm test -- foo` → `run_terminal_cmd(npm test *)`, `ls -la` → `run_terminal_cmd(ls *)`, and the
 * command exactly as approved where a wildcard could admit code the call did not run
 * (`find . -name x -delete`, `git -c a=b log`, `taskset 1 npm test`; see `ruleShapeOf`). Never for
 * a command that is blocked, cannot be fully read, picks its program or arguments at run time,
 * writes to files, or runs code handed to it (`bash -c`, `eval`, `sudo`). For paths, each path itself, anchored at the
 * project root; never for a sensitive path, which is approved one call at a time. For a URL, its host.
 */
export function ruleForApproval(
  toolName: string,
  subjects: CallSubjects,
  options: ApprovalRuleOptions = {},
): ApprovalRule {
  if (options.blocked) return { ok: false, reason: "the call is blocked by policy" };
  const specifiers: string[] = [];
  if (subjects.command !== undefined) {
    const prefixes = commandPrefixes(subjects.command);
    if (!prefixes.ok) return prefixes;
    specifiers.push(...prefixes.rules);
  } else {
    if (subjects.url !== undefined) {
      const host = hostOf(subjects.url);
      if (host === undefined) return { ok: false, reason: `${subjects.url} is not a URL with a host` };
      specifiers.push(`domain:${host}`);
    }
    for (const input of subjects.paths) {
      const sensitive = isSensitivePath(input, {
        projectRoot: options.projectRoot,
        latheHome: options.latheHome,
      });
      if (sensitive)
        return { ok: false, reason: `${input} is a sensitive path; it is approved one call at a time` };
      const specifier = pathSpecifier(input, options.projectRoot);
      // The project root itself: the rule is the tool, every path being below it.
      if (specifier === undefined) return { ok: true, rules: [toolName] };
      specifiers.push(specifier);
    }
  }
  if (specifiers.length === 0) return { ok: true, rules: [toolName] };
  const rules = [...new Set(specifiers)].map((specifier) => `${toolName}(${specifier})`);
  for (const rule of rules) {
    const parsed = parseRule(rule, "allow", "session");
    if (!parsed.ok) return { ok: false, reason: parsed.message };
  }
  return { ok: true, rules };
}

function commandPrefixes(command: string): ApprovalRule {
  const line = commandForRules(command);
  if (!line.complete || line.segments.length === 0) {
    return { ok: false, reason: "the command cannot be read in full (an unclosed quote or substitution)" };
  }
  const rules: string[] = [];
  for (const segment of line.segments) {
    if (!segment.allowable) {
      return {
        ok: false,
        reason: `\`${segment.text}\` chooses its program at run time or writes to files; no rule can vouch for it`,
      };
    }
    const prefix = prefixOf(segment.words);
    if (!prefix.ok) return prefix;
    rules.push(...prefix.rules);
  }
  return { ok: true, rules };
}

function prefixOf(words: readonly ShellWord[]): ApprovalRule {
  let start = 0;
  while (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[start]?.value ?? "")) start++;
  const [program, second] = words.slice(start);
  if (program === undefined) return { ok: false, reason: "the command only sets variables" };
  const name = path.posix.basename(program.value);
  if (runsItsArguments.has(name)) {
    return { ok: false, reason: `${name} runs the command in its arguments; approve it one call at a time` };
  }
  if (second !== undefined && inlineCodeOptions[name]?.has(second.value)) {
    return {
      ok: false,
      reason: `${name} ${second.value} runs code given inline; approve it one call at a time`,
    };
  }
  // Assignments stay in the rule: allow rules compare them too, and they can change what runs.
  const actionWords = actionWordCount(words.slice(start));
  const exact = actionWords === undefined;
  const prefix = exact ? words : words.slice(0, start + 1 + actionWords);
  const dynamic = prefix.find((word) => word.dynamic);
  if (dynamic !== undefined) {
    return {
      ok: false,
      reason: `\`${dynamic.raw}\` is only known at run time; approve it one call at a time`,
    };
  }
  const quoted = prefix.map((word) => shellQuote(word.value));
  return { ok: true, rules: [(exact ? quoted : [...quoted, "*"]).join(" ")] };
}

/**
 * How many words after the program the rule names before its `*`; undefined when nothing may be
 * generalised and the rule is the command exactly (see `ruleShapeOf`). Only plain, static words
 * count as actions: an option or an expansion there is never stood in for by the wildcard.
 */
function actionWordCount(command: readonly ShellWord[]): number | undefined {
  const [program, action, ...rest] = command;
  const shape = program === undefined ? undefined : ruleShapeOf(program.value);
  if (shape?.kind === "anyArguments") return 0;
  if (shape === undefined || action === undefined || !isPlainWord(action)) return undefined;
  if (shape.kind === "script") return 1;
  const more = shape.actions.get(action.value);
  if (more === undefined) return undefined;
  const named = rest.slice(0, more);
  return named.length === more && named.every(isPlainWord) ? 1 + more : undefined;
}

function isPlainWord(word: ShellWord): boolean {
  return !word.dynamic && !word.value.startsWith("-");
}

/** Quotes a word for a rule only when it needs it, so rules stay readable. */
function shellQuote(value: string): string {
  if (/^[A-Za-z0-9_@%+=:,./~^-]+$/.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

function hostOf(url: string): string | undefined {
  try {
    const host = new URL(url).hostname.replace(/\.$/, "");
    return host === "" ? undefined : host;
  } catch {
    return undefined;
  }
}

/** `./src/a.ts` for a path in the project (anchored, unlike `src/a.ts` in gitignore terms); absolute otherwise. */
function pathSpecifier(input: string, projectRoot: string | undefined): string | undefined {
  if (projectRoot === undefined) {
    if (path.isAbsolute(input)) return escapeGlob(path.normalize(input));
    const relative = path.posix.normalize(input.split(path.sep).join("/")).replace(/^(\.\/)+/, "");
    return relative === "." || relative === "" ? undefined : `./${escapeGlob(relative)}`;
  }
  const absolute = path.resolve(projectRoot, input);
  if (!isWithin(path.resolve(projectRoot), absolute)) return escapeGlob(absolute);
  const relative = path.relative(path.resolve(projectRoot), absolute).split(path.sep).join("/");
  return relative === "" ? undefined : `./${escapeGlob(relative)}`;
}

/** Glob characters in a file name are meant literally. */
function escapeGlob(value: string): string {
  return value.replace(/[\\*?[\]{}()!#]/g, "\\$&");
}
