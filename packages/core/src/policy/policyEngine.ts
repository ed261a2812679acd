import type { Risk } from "@lathe/protocol";
import { type ApprovalMode, decideByRisk } from "./approvalMode.js";
import { callSubjects } from "./callSubjects.js";
import type { Assessment, JudgedTool, PermissionRule, PolicyDecision } from "./policyTypes.js";
import { evaluateRules } from "./rules/index.js";
import { isSensitivePath } from "./sensitivePaths.js";

export interface PolicyInput {
  tool: JudgedTool;
  /** Arguments already validated against the tool's schema. */
  args: unknown;
  projectRoot: string;
  approvalMode: ApprovalMode;
  rules: readonly PermissionRule[];
  latheHome: string;
}

/**
 * The one place that decides whether a call runs (SPEC §5): a hard block denies in every mode;
 * then deny > ask > allow rules; then the approval mode's risk matrix. Sensitive paths raise the
 * risk to critical. Nothing in the arguments can change the rules themselves.
 */
export async function decidePolicy(input: PolicyInput): Promise<PolicyDecision> {
  const assessment = await assess(input.tool, input.args, input.projectRoot);
  const decision = await decide(input, assessment);
  return assessment.needsNetwork ? { ...decision, needsNetwork: true } : decision;
}

async function decide(input: PolicyInput, assessment: Assessment): Promise<PolicyDecision> {
  if (assessment.block) {
    return {
      decision: "deny",
      risk: "critical",
      reason: assessment.block.reason,
      code: assessment.block.code,
    };
  }
  const subjects = callSubjects(input.tool.name, input.args);
  const sensitive = subjects.paths.find((path) =>
    isSensitivePath(path, { projectRoot: input.projectRoot, latheHome: input.latheHome }),
  );
  const risk: Risk = sensitive === undefined ? assessment.risk : "critical";
  const reason = sensitive === undefined ? assessment.reason : `${sensitive} is a sensitive file`;

  const matched = evaluateRules(input.rules, input.tool.name, subjects, input.projectRoot);
  if (matched?.behavior === "deny") {
    return {
      decision: "deny",
      risk,
      reason: `denied by the rule ${matched.rule}`,
      code: "E_SECURITY_BLOCKED",
      rule: matched.rule,
    };
  }
  if (matched?.behavior === "ask")
    return { decision: "ask", risk, reason: `the rule ${matched.rule} asks first`, rule: matched.rule };
  // An allow rule never waves through a sensitive file: otherwise `allow: ["edit_file"]` would
  // let the model rewrite the settings that hold the rules.
  if (matched?.behavior === "allow" && sensitive === undefined) {
    return { decision: "allow", risk, reason: `allowed by the rule ${matched.rule}`, rule: matched.rule };
  }

  const decision = decideByRisk(input.approvalMode, risk);
  return {
    decision,
    risk,
    reason:
      decision === "ask"
        ? `${reason}; ${risk} risk asks first in ${input.approvalMode} mode`
        : `${reason}; ${risk} risk runs without asking in ${input.approvalMode} mode`,
  };
}

async function assess(tool: JudgedTool, args: unknown, projectRoot: string): Promise<Assessment> {
  // The arguments were validated against this very tool's schema before they reach the policy.
  if (tool.assess) return tool.assess(args as never, { projectRoot });
  const risk = tool.risk(args as never, { projectRoot });
  return { risk, reason: `${tool.name} is ${risk} risk` };
}
