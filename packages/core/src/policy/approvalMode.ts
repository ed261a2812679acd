import type { ApprovalMode, Risk } from "@lathe/protocol";

export { type ApprovalMode, approvalModeSchema } from "@lathe/protocol";

export type ApprovalDecision = "allow" | "ask";

/**
 * The lowest risk each mode asks about (SPEC §5 matrix); `yolo` never asks. Hard blocks are
 * decided before this and hold in every mode.
 */
const firstAskedRisk: Record<ApprovalMode, Risk | undefined> = {
  manual: "low",
  ask_first: "medium",
  auto_edit: "high",
  auto: "critical",
  yolo: undefined,
};

const riskOrder: readonly Risk[] = ["safe", "low", "medium", "high", "critical"];

export function decideByRisk(mode: ApprovalMode, risk: Risk): ApprovalDecision {
  const threshold = firstAskedRisk[mode];
  if (threshold === undefined) return "allow";
  return riskOrder.indexOf(risk) >= riskOrder.indexOf(threshold) ? "ask" : "allow";
}
