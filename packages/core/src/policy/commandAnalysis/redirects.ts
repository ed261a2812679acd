import { judgeWriteTarget } from "./fileWriters.js";
import type { JudgeContext } from "./judgeContext.js";
import { judgeSensitiveTarget } from "./sensitiveOperands.js";
import type { StaticWord } from "./staticWords.js";
import { combineVerdicts, safeReadOnly, type Verdict, verdict, withNetwork } from "./verdict.js";

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
  const own = judgeOwnTarget(operator, target, targetIsProcess, ctx);
  const sensitive =
    target === undefined || targetIsProcess || /^(\d+|-)$/.test(target.value)
      ? undefined
      : judgeSensitiveTarget(
          target,
          ctx,
          inputOperators.has(operator) ? "redirect reads" : "redirect writes to",
        );
  return sensitive ? combineVerdicts([own, sensitive]) : own;
}

/** bash opens a socket for `/dev/tcp/HOST/PORT` and `/dev/udp/…` in a redirect, reading or writing. */
const socketPath = /^\/dev\/(tcp|udp)\//;

function judgeOwnTarget(
  operator: string,
  target: StaticWord | undefined,
  targetIsProcess: boolean,
  ctx: JudgeContext,
): Verdict {
  if (target !== undefined && socketPath.test(target.value)) {
    return withNetwork(verdict("high", `redirect opens a network connection (${target.value})`));
  }
  if (inputOperators.has(operator) || target === undefined || targetIsProcess) {
    return safeReadOnly("redirect reads or copies a descriptor");
  }
  if ((operator === ">&" || operator === "<&" || operator === ">&-") && /^(\d+|-)$/.test(target.value)) {
    return safeReadOnly("redirect copies a descriptor");
  }
  return judgeWriteTarget(target, ctx, "redirect writes to");
}
