import type { JudgeContext } from "./judgeContext.js";
import { classifyTarget, type TargetClass } from "./pathClasses.js";
import type { StaticWord } from "./staticWords.js";
import { blocked, combineVerdicts, type Verdict, verdict } from "./verdict.js";

/** Targets whose recursive removal is never allowed, with why. */
const forbidden: Partial<Record<TargetClass, string>> = {
  root: "the filesystem root",
  rootGlob: "a glob at the filesystem root",
  systemDir: "a top-level system directory",
  home: "the home directory",
  ancestor: "a directory above the project root (it holds the project and everything beside it)",
};

export interface DeletionKind {
  /** `rm -r`, `find -delete`, `chmod -R`…: whole trees. `maybe` when a dynamic word could be `-r`. */
  recursive: boolean | "maybe";
  /** What the command does, for reasons: "rm -r", "find -delete", "chmod -R". */
  label: string;
  /** Whether recursing into a forbidden target is a hard block (rm, find) or only high (mv). */
  blocks: boolean;
  /**
   * Only some files under the targets go (`find . -name '*.log' -delete`): a forbidden target is
   * high rather than blocked, and the project root is an ordinary project path.
   */
  selective?: boolean;
}

/**
 * Judges the targets of a deleting (or recursively rewriting) command: recursive on the root, a
 * root glob, a system directory, home or an ancestor of the project is blocked; elsewhere outside
 * the project is high; inside the project medium, except the whole project (high).
 */
export function judgeDeletionTargets(
  targets: readonly StaticWord[],
  kind: DeletionKind,
  ctx: JudgeContext,
): Verdict {
  const verdicts: Verdict[] = [];
  if (ctx.argsFromStdin) {
    verdicts.push(
      kind.recursive
        ? verdict("high", `${kind.label} of paths read from stdin`)
        : verdict("medium", `${kind.label} of paths read from stdin`),
    );
  }
  for (const target of targets) verdicts.push(judgeTarget(target, kind, ctx));
  if (verdicts.length === 0) verdicts.push(verdict("medium", `${kind.label} without targets`));
  return combineVerdicts(verdicts);
}

function judgeTarget(target: StaticWord, kind: DeletionKind, ctx: JudgeContext): Verdict {
  const shown = target.value;
  if (target.dynamic) {
    return kind.recursive
      ? verdict("high", `${kind.label} of a path computed at run time (${shown})`)
      : verdict("medium", `${kind.label} of a path computed at run time (${shown})`);
  }
  const cls = classifyTarget(target.value, ctx);
  const why = forbidden[cls];
  if (why !== undefined) {
    if (kind.recursive === true && kind.blocks && !kind.selective)
      return blocked(`${kind.label} ${shown}: ${why}`);
    return verdict("high", `${kind.label} ${shown}: ${why}`);
  }
  switch (cls) {
    case "projectRoot":
      return kind.recursive && !kind.selective
        ? verdict("high", `${kind.label} ${shown}: the whole project`)
        : verdict("medium", `${kind.label} ${shown} in the project`);
    case "system":
      return verdict("high", `${kind.label} ${shown}: a system path`);
    case "homePath":
      return verdict("high", `${kind.label} ${shown}: in the home directory, outside the project`);
    case "outside":
      return verdict("high", `${kind.label} ${shown}: outside the project`);
    case "unknown":
      return kind.recursive
        ? verdict("high", `${kind.label} ${shown} after a cd that could not be followed`)
        : verdict("medium", `${kind.label} ${shown}`);
    case "temp":
      return verdict("medium", `${kind.label} ${shown} in a temporary directory`);
    default:
      return verdict("medium", `${kind.label} ${shown} in the project`);
  }
}
