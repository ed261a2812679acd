import { hasOption, optionValues, parseArgs } from "./commandArgs.js";
import { judgeDeletionTargets } from "./deletionTargets.js";
import type { CommandJudge, JudgeContext } from "./judgeContext.js";
import { classifyWriteTarget } from "./pathClasses.js";
import { judgeSensitiveTarget } from "./sensitiveOperands.js";
import type { StaticWord } from "./staticWords.js";
import { blocked, combineVerdicts, safeReadOnly, type Verdict, verdict } from "./verdict.js";

/**
 * Judges one file a command writes (a redirect target, `tee` file, `cp` destination). Writes
 * outside the project are the sandbox's and path guard's to refuse, so they are only medium here,
 * except system paths and the home directory (configuration and start-up files: high) and raw
 * disks (blocked).
 */
export function judgeWriteTarget(target: StaticWord, ctx: JudgeContext, what: string): Verdict {
  const own = judgePlace(target, ctx, what);
  const sensitive = judgeSensitiveTarget(target, ctx, what);
  return sensitive ? combineVerdicts([own, sensitive]) : own;
}

function judgePlace(target: StaticWord, ctx: JudgeContext, what: string): Verdict {
  if (target.dynamic) return verdict("high", `${what} a path computed at run time (${target.value})`);
  switch (classifyWriteTarget(target.value, ctx)) {
    case "discard":
      return safeReadOnly(`${what} ${target.value}`);
    case "disk":
      return blocked(`${what} ${target.value}: overwrites a disk`);
    case "device":
      return verdict("high", `${what} the device ${target.value}`);
    case "system":
      return verdict("high", `${what} ${target.value}: a system path`);
    case "home":
      return verdict("high", `${what} ${target.value}: in the home directory, outside the project`);
    case "elsewhere":
      return verdict("medium", `${what} ${target.value}, outside the project`);
    case "project":
      return verdict("medium", `${what} ${target.value}`);
  }
}

/** `cp`/`mv`/`install`/`ln`: the destination is `-t DIR` or the last operand. */
function copyJudge(shortWithValue: string, movesSources: boolean): CommandJudge {
  return (args, ctx, name) => {
    const parsed = parseArgs(args, {
      shortWithValue,
      longWithValue: ["target-directory", "suffix", "backup", "mode", "owner", "group", "context"],
    });
    const targetDir = optionValues(parsed, "t", "target-directory")[0];
    const operands = [...parsed.operands];
    const destination = targetDir ?? operands.pop();
    const verdicts: Verdict[] = [];
    if (destination !== undefined) verdicts.push(judgeWriteTarget(destination, ctx, `${name} writes to`));
    if (movesSources) {
      // Moving a directory away removes it from where it was: judged like a deletion that never
      // blocks (mv fails on / itself, but moving /etc or ~ away breaks the machine just as well).
      verdicts.push(judgeDeletionTargets(operands, { recursive: true, label: "mv", blocks: false }, ctx));
    }
    if (verdicts.length === 0) verdicts.push(verdict("medium", `${name} copies files`));
    return combineVerdicts(verdicts);
  };
}

/** Every operand is written: `touch`, `mkdir`, `truncate`. */
function eachOperandJudge(shortWithValue: string, longWithValue: readonly string[]): CommandJudge {
  return (args, ctx, name) => {
    const parsed = parseArgs(args, { shortWithValue, longWithValue });
    const verdicts = parsed.operands.map((w) => judgeWriteTarget(w, ctx, `${name} writes`));
    if (verdicts.length === 0) verdicts.push(verdict("medium", `${name} writes files`));
    return combineVerdicts(verdicts);
  };
}

/** `tee` without files only copies stdin to stdout. */
const judgeTee: CommandJudge = (args, ctx) => {
  const parsed = parseArgs(args, { longWithValue: ["output-error"] });
  if (parsed.operands.length === 0) return safeReadOnly("tee without files only prints");
  return combineVerdicts(parsed.operands.map((w) => judgeWriteTarget(w, ctx, "tee writes to")));
};

/** Local rsync is a copy (with --delete, a deletion too); a remote one is a network tool. */
const judgeRsync: CommandJudge = (args, ctx) => {
  const parsed = parseArgs(args, {
    shortWithValue: "efBT",
    longWithValue: ["rsh", "exclude", "include", "filter"],
  });
  const remote = parsed.operands.some((w) => /^[^/]*:/.test(w.value) || w.value.startsWith("rsync://"));
  if (remote) return { ...verdict("high", "rsync copies files over the network"), needsNetwork: true };
  const destination = parsed.operands[parsed.operands.length - 1];
  const verdicts: Verdict[] = [];
  if (destination) verdicts.push(judgeWriteTarget(destination, ctx, "rsync writes to"));
  if (hasOption(parsed, undefined, "delete"))
    verdicts.push(verdict("medium", "rsync --delete removes files"));
  return combineVerdicts(verdicts.length > 0 ? verdicts : [verdict("medium", "rsync copies files")]);
};

export const fileWriterJudges: Readonly<Record<string, CommandJudge>> = {
  cp: copyJudge("tS", false),
  install: copyJudge("tSmogCZ", false),
  ln: copyJudge("tS", false),
  mv: copyJudge("tS", true),
  tee: judgeTee,
  touch: eachOperandJudge("dtr", ["date", "reference", "time"]),
  mkdir: eachOperandJudge("mZ", ["mode", "context"]),
  truncate: eachOperandJudge("sr", ["size", "reference"]),
  rsync: judgeRsync,
};
