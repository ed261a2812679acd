import path from "node:path";
import { commandWrappers, type Unwrapped } from "./commandWrappers.js";
import { destructiveJudgeFor } from "./destructiveCommands.js";
import { fileWriterJudges } from "./fileWriters.js";
import { judgeGit } from "./gitCommands.js";
import { interpreterFamily, interpreterJudges, judgeInlineShell, shellNames } from "./interpreters.js";
import type { CommandJudge, JudgeContext, JudgedCommand } from "./judgeContext.js";
import { downloaders, networkJudges } from "./networkCommands.js";
import { packageManagerJudges } from "./packageManagers.js";
import { classifyTarget } from "./pathClasses.js";
import { projectToolJudges } from "./projectTools.js";
import { readOnlyJudges } from "./readOnlyCommands.js";
import { judgeSensitiveOperands } from "./sensitiveOperands.js";
import { noOutput, type StageOutput } from "./stageOutput.js";
import type { StaticWord } from "./staticWords.js";
import {
  atLeast,
  blocked,
  combineVerdicts,
  explainedBy,
  projectCode,
  safeReadOnly,
  type Verdict,
  verdict,
} from "./verdict.js";

const judgeTables: readonly Readonly<Record<string, CommandJudge>>[] = [
  readOnlyJudges,
  fileWriterJudges,
  { git: judgeGit },
  packageManagerJudges,
  networkJudges,
  interpreterJudges,
  projectToolJudges,
];

/** `-v` prints the version only for these; elsewhere it often means "verbose". */
const dashLowerVersion = new Set(["node", "npm", "npx", "pnpm", "yarn", "bun", "deno", "tsc"]);
const dashUpperVersion = new Set(["python", "cargo", "rustc", "pip", "pip3"]);

/**
 * Judges one simple command from its words: wrappers are peeled (`sudo`, `env`, `xargs`…), then
 * the command is looked up by name. A name we cannot know statically is high; one we do not know
 * is medium, except the project's own scripts (`./build.sh`), which are low.
 */
export function judgeArgv(argv: readonly StaticWord[], ctx: JudgeContext): JudgedCommand {
  const first = argv[0];
  if (first === undefined) return { verdict: safeReadOnly("only sets variables"), output: noOutput };
  if (first.fromDownload)
    return { verdict: blocked("runs downloaded content as a command"), output: noOutput };
  if (first.dynamic) {
    return {
      verdict: verdict("high", `the command name is computed at run time (${first.value})`),
      output: noOutput,
    };
  }
  const outside = leavesProject(first.value, ctx);
  const raw = outside ? path.posix.basename(first.value) : first.value;
  const name = commandName(raw);
  const args = argv.slice(1);
  const unwrap = lookup(commandWrappers, name);
  if (unwrap) return judgeUnwrapped(unwrap(args, ctx, name), ctx);
  const judged = judgeNamed(raw, name, args, ctx);
  const named = outside
    ? atLeast(judged, "high", `runs ${first.value}, a program outside the project`)
    : judged;
  const sensitive = judgeSensitiveOperands(name, args, ctx);
  return {
    verdict: sensitive ? combineVerdicts([named, sensitive]) : named,
    output: outputOf(name, args, ctx),
  };
}

function judgeUnwrapped(unwrapped: Unwrapped, ctx: JudgeContext): JudgedCommand {
  switch (unwrapped.kind) {
    case "done":
      return { verdict: unwrapped.verdict, output: noOutput };
    case "script": {
      const script = judgeInlineShell(unwrapped.script, ctx, unwrapped.what);
      return {
        verdict: combineVerdicts(unwrapped.floor ? [script, unwrapped.floor] : [script]),
        output: noOutput,
      };
    }
    case "run": {
      // Wrappers run programs, never the shell's functions (`command rm` bypasses a function rm).
      const overrides = { functions: new Set<string>(), argsFromStdin: unwrapped.argsFromStdin === true };
      const judged = unwrapped.argvs.map((argv) => ctx.judgeArgv(argv, overrides));
      const verdicts = judged.map((j) =>
        unwrapped.replacesShell && j.verdict.unknown
          ? atLeast(j.verdict, "high", `exec replaces the shell with an unknown command`)
          : j.verdict,
      );
      if (unwrapped.floor) verdicts.push(unwrapped.floor);
      return { verdict: combineVerdicts(verdicts), output: judged[judged.length - 1]?.output ?? noOutput };
    }
  }
}

function judgeNamed(raw: string, name: string, args: readonly StaticWord[], ctx: JudgeContext): Verdict {
  const family = interpreterFamily(name);
  const only = args.length === 1 && args[0] !== undefined && !args[0].dynamic ? args[0].value : undefined;
  const asksVersion =
    only === "--version" ||
    only === "--help" ||
    (only === "-v" && dashLowerVersion.has(family)) ||
    (only === "-V" && dashUpperVersion.has(family));
  if (asksVersion && !raw.includes("/")) return safeReadOnly(`${name} ${only} only prints`);
  const judge = destructiveJudgeFor(name) ?? findJudge(family);
  if (judge) return judge(args, ctx, family);
  // A function only counts when its name is not a command we know: shadowing `rm` with a harmless
  // function is judged as `rm` anyway, which errs on the side of caution.
  if (ctx.functions.has(raw)) return safeReadOnly(`calls ${raw}, a function judged where it is defined`);
  const passed = judgePassedCommands(raw, args, ctx);
  if (raw.includes("/") && !raw.startsWith("/") && !raw.startsWith("~")) {
    return combineVerdicts([projectCode(`runs the project script ${raw}`), ...passed]);
  }
  const own: Verdict = { ...verdict("medium", `${raw} is not a known command`), unknown: true };
  return passed.length === 0 ? own : { ...combineVerdicts([own, ...passed]), unknown: true };
}

/** Words of an unknown command looked at as commands it may run; more are not worth the time. */
const maxPassedWords = 32;

/**
 * A program we do not know may be a wrapper (`taskset 1 rm -rf /`, `mytool --run 'rm -rf /'`): every
 * tail of its words that starts with a known command, and every word that reads as a script, is
 * judged as what it would run. A hard block there blocks; a shell or interpreter there is high.
 */
function judgePassedCommands(raw: string, args: readonly StaticWord[], ctx: JudgeContext): Verdict[] {
  const verdicts: Verdict[] = [];
  for (let i = 0; i < Math.min(args.length, maxPassedWords); i++) {
    const word = args[i];
    if (word === undefined || word.dynamic || word.value.startsWith("-")) continue;
    const inner = commandName(word.value);
    if (isKnownCommand(inner)) {
      const judged = ctx.judgeArgv(args.slice(i)).verdict;
      if (judged.block) verdicts.push(explainedBy(judged, `${raw} may run ${word.value}`));
      else if (shellNames.has(inner) || Object.hasOwn(commandWrappers, inner)) {
        verdicts.push(atLeast(judged, "high", `${raw} may run ${word.value}`));
      }
    }
    if (/\s/.test(word.value) && /[;&|`$<>]|\b(rm|dd|mkfs|sh|bash|curl|wget)\b/.test(word.value)) {
      const judged = ctx.judgeScript(word.value);
      if (judged.block) verdicts.push(explainedBy(judged, `${raw} may run the script ${word.value}`));
    }
  }
  return verdicts;
}

function isKnownCommand(name: string): boolean {
  return (
    Object.hasOwn(commandWrappers, name) ||
    destructiveJudgeFor(name) !== undefined ||
    findJudge(interpreterFamily(name)) !== undefined
  );
}

function findJudge(name: string): CommandJudge | undefined {
  for (const table of judgeTables) {
    const judge = lookup(table, name);
    if (judge) return judge;
  }
  return undefined;
}

/** Own properties only: a command named `constructor` must not find Object's. */
function lookup<T>(table: Readonly<Record<string, T>>, name: string): T | undefined {
  return Object.hasOwn(table, name) ? table[name] : undefined;
}

/**
 * `./../../bin/rm` names a program outside the project through a relative path: it is judged as
 * the program it names (rm), never as one of the project's own scripts.
 */
function leavesProject(raw: string, ctx: JudgeContext): boolean {
  if (!raw.includes("/") || raw.startsWith("/") || raw.startsWith("~")) return false;
  const cls = classifyTarget(raw, ctx);
  return cls !== "project" && cls !== "projectRoot" && cls !== "unknown";
}

/** `/usr/bin/rm` is rm; `./rm` is a project script of that name and stays as written. */
export function commandName(raw: string): string {
  return raw.startsWith("/") ? (raw.split("/").pop() ?? raw) : raw;
}

/** What flows to the next pipeline stage: downloads, or static text from echo/printf/cat. */
function outputOf(name: string, args: readonly StaticWord[], ctx: JudgeContext): StageOutput {
  if (downloaders.has(name)) return { downloads: true };
  const words = args.filter((w, i) => !(name === "echo" && i === 0 && /^-[neE]+$/.test(w.value)));
  const staticText = words.every((w) => !w.dynamic);
  if (name === "echo" && staticText)
    return { downloads: false, text: `${words.map((w) => w.value).join(" ")}\n` };
  if (name === "printf" && staticText) {
    return { downloads: false, text: words.map((w) => w.value.replaceAll("\\n", "\n")).join(" ") };
  }
  if (name === "cat" && args.every((w) => w.value === "-")) {
    const passed: StageOutput = { downloads: ctx.stdin.downloads };
    if (ctx.stdin.text !== undefined) passed.text = ctx.stdin.text;
    return passed;
  }
  return noOutput;
}
