import type { ApprovalMode } from "@lathe/protocol";

/** One line per mode, from SPEC §5's table; typed against the protocol so a new mode cannot go unexplained. */
export const approvalModeExplanations: Record<ApprovalMode, string> = {
  manual: "Asks before every action that is not a safe read.",
  ask_first: "Asks before medium-risk actions and above, such as edits and most commands.",
  auto_edit: "Edits and low-risk commands run; asks before high-risk and critical actions.",
  auto: "Runs everything except critical actions, which it still asks about.",
  yolo: "Never asks. Hard blocks such as `rm -rf /` still hold.",
};

export const approvalModeNames = Object.keys(approvalModeExplanations) as ApprovalMode[];

export function isApprovalMode(mode: string): mode is ApprovalMode {
  return Object.hasOwn(approvalModeExplanations, mode);
}
