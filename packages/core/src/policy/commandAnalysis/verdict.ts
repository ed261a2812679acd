import type { Risk } from "@lathe/protocol";
import type { Assessment } from "../policyTypes.js";

/** Risks from least to most severe; the index is the severity. */
export const riskOrder: readonly Risk[] = ["safe", "low", "medium", "high", "critical"];

export function riskRank(risk: Risk): number {
  return riskOrder.indexOf(risk);
}

/** One judgement of one piece of a command (a simple command, a redirect, an inline script). */
export interface Verdict extends Assessment {
  /** Nothing is written, deleted, started or sent: the piece only reads and prints. */
  readOnly: boolean;
  /**
   * The command is not one we know; `exec` raises such commands to high because the shell is
   * replaced by something we cannot judge.
   */
  unknown?: boolean;
}

export function verdict(risk: Risk, reason: string, readOnly = false): Verdict {
  return { risk, reason, readOnly };
}

export function safeReadOnly(reason: string): Verdict {
  return { risk: "safe", reason, readOnly: true };
}

/** Runs the project's own code: low here, raised by the policy when no sandbox contains it. */
export function projectCode(reason: string): Verdict {
  return { risk: "low", reason, readOnly: false, runsProjectCode: true };
}

export function withNetwork(v: Verdict): Verdict {
  return { ...v, needsNetwork: true };
}

export function blocked(reason: string): Verdict {
  return { risk: "critical", reason, block: { code: "E_COMMAND_BLOCKED", reason }, readOnly: false };
}

/**
 * Folds judgements of the parts of one thing into one: the most severe risk and its reason (a
 * block beats an unblocked critical, the first wins ties), network or project code if any part
 * needs it or runs it, read-only only if every part is.
 */
export function combineVerdicts(verdicts: readonly Verdict[]): Verdict {
  let worst: Verdict | undefined;
  let needsNetwork = false;
  let runsProjectCode = false;
  let readOnly = true;
  for (const v of verdicts) {
    if (v.needsNetwork) needsNetwork = true;
    if (v.runsProjectCode) runsProjectCode = true;
    if (!v.readOnly) readOnly = false;
    if (worst === undefined || outranks(v, worst)) worst = v;
  }
  if (worst === undefined) return safeReadOnly("nothing to run");
  const combined: Verdict = { risk: worst.risk, reason: worst.reason, readOnly };
  if (worst.block) combined.block = worst.block;
  if (needsNetwork) combined.needsNetwork = true;
  if (runsProjectCode) combined.runsProjectCode = true;
  if (worst.unknown && verdicts.length === 1) combined.unknown = true;
  return combined;
}

function outranks(candidate: Verdict, current: Verdict): boolean {
  const diff = riskRank(candidate.risk) - riskRank(current.risk);
  if (diff !== 0) return diff > 0;
  return candidate.block !== undefined && current.block === undefined;
}

/** Raises a verdict to at least `floor`, keeping its reason when it is already that severe. */
export function atLeast(v: Verdict, floor: Risk, reason: string): Verdict {
  if (riskRank(v.risk) >= riskRank(floor)) return v;
  return { ...v, risk: floor, reason };
}

/** The same judgement, explained as part of something bigger (`bash -c: rm -r /: …`). */
export function explainedBy(v: Verdict, prefix: string): Verdict {
  const out: Verdict = { ...v, reason: `${prefix}: ${v.reason}` };
  if (v.block) out.block = { ...v.block, reason: `${prefix}: ${v.block.reason}` };
  return out;
}
