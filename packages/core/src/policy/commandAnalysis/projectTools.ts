import { hasOption, parseArgs } from "./commandArgs.js";
import type { CommandJudge } from "./judgeContext.js";
import type { StaticWord } from "./staticWords.js";
import { type Verdict, verdict } from "./verdict.js";

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

const judgeBuild: CommandJudge = (_args, _ctx, name) => verdict("low", `${name} builds or tests the project`);

const judgeMake: CommandJudge = (args) => {
  const parsed = parseArgs(args, {
    shortWithValue: "CfIjlWo",
    longWithValue: ["directory", "file", "makefile", "jobs"],
  });
  const installs = parsed.operands.some((w) => w.value === "install" || w.value === "uninstall");
  return installs
    ? verdict("medium", "make install copies files out of the project")
    : verdict("low", "make builds the project");
};

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
