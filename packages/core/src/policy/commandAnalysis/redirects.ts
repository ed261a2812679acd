import { judgeWriteTarget } from "./fileWriters.js";
import type { JudgeContext } from "./judgeContext.js";
import type { StaticWord } from "./staticWords.js";
import { safeReadOnly, type Verdict } from "./verdict.js";

const inputOperators = new Set(["<", "<&", "<&-", "<<", "<<-", "<<<"]);

/**
 * Judges one file redirect. Reads and descriptor copies (`2>&1`, `>&-`) are safe; writes are
 * judged by where they land (`/dev/null` safe, project files medium, system paths and home high,
 * raw disks blocked). A `>(…)` target is a process, judged where it is walked.
 */
export function judgeFileRedirect(
  operator: string,
  target: StaticWord | undefined,
  targetIsProcess: boolean,
  ctx: JudgeContext,
): Verdict {
  if (inputOperators.has(operator) || target === undefined || targetIsProcess) {
    return safeReadOnly("redirect reads or copies a descriptor");
  }
  if ((operator === ">&" || operator === "<&" || operator === ">&-") && /^(\d+|-)$/.test(target.value)) {
    return safeReadOnly("redirect copies a descriptor");
  }
  return judgeWriteTarget(target, ctx, "redirect writes to");
}
