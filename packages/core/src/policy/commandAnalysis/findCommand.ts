import { staticWord } from "./commandArgs.js";
import { judgeDeletionTargets } from "./deletionTargets.js";
import { judgeWriteTarget } from "./fileWriters.js";
import type { CommandJudge } from "./judgeContext.js";
import type { StaticWord } from "./staticWords.js";
import { atLeast, combineVerdicts, explainedBy, safeReadOnly, type Verdict } from "./verdict.js";

const execActions = new Set(["-exec", "-execdir", "-ok", "-okdir"]);

/** Options and actions that do not narrow which files match (everything else is a test that does). */
const nonFilters = new Set([
  "-delete",
  "-print",
  "-print0",
  "-depth",
  "-d",
  "-maxdepth",
  "-mindepth",
  "-xdev",
  "-mount",
  "-follow",
  "-noleaf",
  "-daystart",
  "-ignore_readdir_race",
  "-noignore_readdir_race",
  "-regextype",
  "-true",
  "-L",
  "-H",
  "-P",
  ...execActions,
]);
const fileActions = new Set(["-fprint", "-fprint0", "-fprintf", "-fls"]);

/**
 * `find` only reads unless it deletes (`-delete`: judged like `rm -r` of its starting points),
 * runs commands (`-exec …`: the command is judged with `{}` standing for each starting point, the
 * widest thing it can match) or writes files (`-fprint…`).
 */
export const judgeFind: CommandJudge = (args, ctx) => {
  const starts: StaticWord[] = [];
  let i = globalOptionsEnd(args);
  for (; i < args.length; i++) {
    const w = args[i];
    if (w === undefined || (!w.dynamic && /^[-(!]/.test(w.value) && w.value !== "-")) break;
    starts.push(w);
  }
  const startPoints = starts.length > 0 ? starts : [staticWord(".")];
  const selective = hasFilter(args.slice(i));
  const verdicts: Verdict[] = [];
  for (; i < args.length; i++) {
    const w = args[i];
    if (w === undefined || w.dynamic) continue;
    if (w.value === "-delete") {
      verdicts.push(
        judgeDeletionTargets(
          startPoints,
          { recursive: true, label: "find -delete", blocks: true, selective },
          ctx,
        ),
      );
    } else if (execActions.has(w.value)) {
      const inner: StaticWord[] = [];
      for (i++; i < args.length; i++) {
        const word = args[i];
        if (word === undefined || (!word.dynamic && (word.value === ";" || word.value === "+"))) break;
        inner.push(word);
      }
      verdicts.push(judgeExec(w.value, inner, startPoints, selective, ctx));
    } else if (fileActions.has(w.value)) {
      const target = args[i + 1];
      if (target) verdicts.push(judgeWriteTarget(target, ctx, `find ${w.value} writes to`));
      i++;
    }
  }
  if (verdicts.length === 0) return safeReadOnly("find only lists files");
  return combineVerdicts(verdicts);
};

/**
 * The index after find's global options (`-H`, `-L`, `-P`, `-D debugopts`, `-Olevel`, `--`), which
 * come before the starting points: `find -L / -delete` starts at `/`, not at `.`.
 */
function globalOptionsEnd(args: readonly StaticWord[]): number {
  let i = 0;
  while (i < args.length) {
    const w = args[i];
    if (w === undefined || w.dynamic) return i;
    if (w.value === "--") return i + 1;
    if (w.value === "-D") i += 2;
    else if (/^-([HLP]+|O\d*)$/.test(w.value)) i++;
    else return i;
  }
  return i;
}

/** Whether the expression has a test that narrows the matches (`-name`, `-type`, `-mtime`…). */
function hasFilter(expression: readonly StaticWord[]): boolean {
  let skipValue = false;
  for (const w of expression) {
    if (skipValue || w.dynamic) {
      skipValue = false;
      continue;
    }
    if (w.value === "-maxdepth" || w.value === "-mindepth" || w.value === "-regextype") skipValue = true;
    else if (execActions.has(w.value)) return false;
    else if (w.value.startsWith("-") && !nonFilters.has(w.value)) return true;
  }
  return false;
}

/**
 * The command is judged with `{}` standing for what it may receive: the starting point itself
 * when nothing narrows the matches (so `find / -exec rm -rf {} +` is `rm -rf /`), otherwise some
 * path below it.
 */
function judgeExec(
  action: string,
  inner: readonly StaticWord[],
  startPoints: readonly StaticWord[],
  selective: boolean,
  ctx: Parameters<CommandJudge>[1],
): Verdict {
  const perStart = startPoints.map((start) => {
    const match = selective ? `${start.value.replace(/\/+$/, "")}/{}` : start.value;
    const argv = inner.map((w) =>
      w.dynamic || !w.value.includes("{}") ? w : { ...w, value: w.value.replaceAll("{}", match) },
    );
    return ctx.judgeArgv(argv).verdict;
  });
  return atLeast(
    explainedBy(combineVerdicts(perStart), `find ${action}`),
    "medium",
    `find ${action} runs a command on each file`,
  );
}
