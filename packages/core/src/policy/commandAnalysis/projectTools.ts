import { hasOption, optionValues, parseArgs, staticWord } from "./commandArgs.js";
import { judgeInlineShell } from "./interpreters.js";
import type { CommandJudge, JudgeContext } from "./judgeContext.js";
import type { StaticWord } from "./staticWords.js";
import { atLeast, combineVerdicts, projectCode, type Verdict, verdict } from "./verdict.js";

/**
 * Build, test and lint tools: they run the project's own code and write only inside it, which is
 * what an agent does all day, so they are low. Formatters and fixers that rewrite files are medium,
 * like any other edit.
 */
const buildAndTest = [
  "cmake",
  "ninja",
  "meson",
  "tsc",
  "vitest",
  "jest",
  "mocha",
  "pytest",
  "py.test",
  "tox",
  "nox",
  "mypy",
  "pyright",
  "tsx",
  "ts-node",
  "vite",
  "next",
  "turbo",
  "nx",
  "gradle",
  "gradlew",
  "mvn",
  "mvnw",
  "dotnet",
  "swift",
  "rustc",
  "gcc",
  "g++",
  "clang",
  "clang++",
  "javac",
  "java",
  "playwright",
];

const judgeBuild: CommandJudge = (_args, _ctx, name) => projectCode(`${name} builds or tests the project`);

/** `$(shell cmd)` and `${shell cmd}` in make text run cmd through the shell. */
const shellCalls = /\$[({]shell\s+([^)}]*)[)}]/g;

/**
 * make runs the project's Makefile (low). Text given on the command line is make code too:
 * `--eval` adds rules and `$(shell …)` in it or in a `NAME=value` operand runs at parse time, and
 * `SHELL=` picks the program every recipe runs with; those are at least high.
 */
const judgeMake: CommandJudge = (args, ctx) => {
  const parsed = parseArgs(args, {
    shortWithValue: "CfIjlWoE",
    longWithValue: [
      "directory",
      "file",
      "makefile",
      "jobs",
      "eval",
      "include-dir",
      "load-average",
      "what-if",
      "old-file",
      "new-file",
      "assume-old",
      "assume-new",
    ],
  });
  const verdicts: Verdict[] = [];
  for (const text of optionValues(parsed, "E", "eval")) {
    verdicts.push(judgeMakeText(text, ctx, "make --eval"));
  }
  for (const operand of parsed.operands) {
    const eq = operand.value.indexOf("=");
    if (eq <= 0) continue;
    const name = operand.value
      .slice(0, eq)
      .replace(/[:!?+]$/, "")
      .trim();
    if (name === "SHELL" || name === ".SHELLFLAGS" || operand.value.slice(0, eq).endsWith("!")) {
      verdicts.push(verdict("high", `make ${name}= changes the program recipes run with`));
    }
    if (operand.dynamic || /\$[({]shell\s/.test(operand.value)) {
      verdicts.push(judgeMakeText(operand, ctx, `make ${name}=`));
    }
  }
  const installs = parsed.operands.some((w) => w.value === "install" || w.value === "uninstall");
  verdicts.push(
    installs
      ? verdict("medium", "make install copies files out of the project")
      : projectCode("make builds the project"),
  );
  return combineVerdicts(verdicts);
};

function judgeMakeText(text: StaticWord, ctx: JudgeContext, what: string): Verdict {
  const floor = `${what} runs make code given on the command line`;
  if (text.dynamic) return verdict("high", floor);
  const calls = [...text.value.matchAll(shellCalls)].map((m) =>
    judgeInlineShell(staticWord(m[1] ?? ""), ctx, what),
  );
  return atLeast(combineVerdicts(calls), "high", floor);
}

interface WriteFlags {
  short?: string;
  long?: readonly string[];
}

/** A tool that rewrites files only when given one of `writeFlags` (or always, when `undefined`). */
function formatterVerdict(
  args: readonly StaticWord[],
  name: string,
  writeFlags: WriteFlags | undefined,
  checkFlags: readonly string[] = [],
): Verdict {
  const parsed = parseArgs(args);
  if (checkFlags.some((flag) => hasOption(parsed, undefined, flag)))
    return verdict("low", `${name} only checks`);
  const writes =
    writeFlags === undefined ||
    hasOption(parsed, writeFlags.short) ||
    (writeFlags.long ?? []).some((flag) => hasOption(parsed, undefined, flag));
  return writes ? verdict("medium", `${name} rewrites files`) : verdict("low", `${name} checks the project`);
}

function formatterJudge(
  writeFlags: WriteFlags | undefined,
  checkFlags: readonly string[] = [],
): CommandJudge {
  return (args, _ctx, name) => formatterVerdict(args, name, writeFlags, checkFlags);
}

const judgeRuff: CommandJudge = (args) =>
  args[0]?.value === "format"
    ? formatterVerdict(args.slice(1), "ruff format", undefined, ["check", "diff"])
    : formatterVerdict(args, "ruff", { long: ["fix"] });

export const projectToolJudges: Readonly<Record<string, CommandJudge>> = {
  ...Object.fromEntries(buildAndTest.map((name): [string, CommandJudge] => [name, judgeBuild])),
  make: judgeMake,
  gmake: judgeMake,
  eslint: formatterJudge({ long: ["fix"] }),
  prettier: formatterJudge({ short: "w", long: ["write"] }),
  biome: formatterJudge({ long: ["write", "fix", "apply", "apply-unsafe"] }),
  ruff: judgeRuff,
  black: formatterJudge(undefined, ["check", "diff"]),
  isort: formatterJudge(undefined, ["check-only", "check", "diff"]),
  gofmt: formatterJudge({ short: "w" }),
  rustfmt: formatterJudge(undefined, ["check"]),
};
