import type { Risk } from "@lathe/protocol";
import { type ApprovalMode, decideByRisk } from "./approvalMode.js";
import { callSubjects } from "./callSubjects.js";
import { riskRank } from "./commandAnalysis/verdict.js";
import { refusedPath } from "./pathPrecheck.js";
import type { Assessment, CallSubjects, JudgedTool, PermissionRule, PolicyDecision } from "./policyTypes.js";
import { evaluateRules } from "./rules/index.js";
import { urlCarriesSecret } from "./secretInUrl.js";
import { isSensitivePath } from "./sensitivePaths.js";

export interface PolicyInput {
  tool: JudgedTool;
  /** Arguments already validated against the tool's schema. */
  args: unknown;
  projectRoot: string;
  approvalMode: ApprovalMode;
  rules: readonly PermissionRule[];
  latheHome: string;
  /** Every key this process knows (`knownSecrets`): a call that would send one away is refused. */
  secrets?: readonly string[];
  /** Present when commands run in a working sandbox, which cuts the network off unless always on. */
  sandbox?: { networkAlwaysOn: boolean };
}

/**
 * The one place that decides whether a call runs (SPEC §5), for a session's scheduler and for
 * `lathe policy check` and `lathe tool` alike. Hard blocks deny in every mode: a known key in a
 * URL, a path the path guard refuses, the tool's own block (the network guard's pre-check, a
 * destructive command). Then deny > ask > allow rules, then the approval mode's risk matrix.
 * Sensitive paths raise the risk to critical. Nothing in the arguments can change the rules.
 */
export async function decidePolicy(input: PolicyInput): Promise<PolicyDecision> {
  const subjects = callSubjects(input.tool.name, input.args);
  const hardBlock = await guardBlock(input, subjects);
  if (hardBlock) return deny(hardBlock);
  const assessment = outsideSandbox(await assess(input.tool, input.args, input), input);
  if (assessment.block) return deny(assessment.block);
  const decision = decide(input, subjects, assessment);
  return assessment.needsNetwork ? withNetworkQuestion({ ...decision, needsNetwork: true }, input) : decision;
}

/** Checked before the tool's own judgement, which may resolve the URL's host name. */
async function guardBlock(input: PolicyInput, subjects: CallSubjects): Promise<Assessment["block"]> {
  if (subjects.url !== undefined && urlCarriesSecret(subjects.url, input.secrets ?? [])) {
    return {
      code: "E_SECURITY_BLOCKED",
      reason: "The URL carries an API key this machine holds; it is never sent anywhere.",
    };
  }
  const refused = await refusedPath(input.tool.name, subjects.paths, input);
  return refused ? { code: refused.code, reason: refused.message } : undefined;
}

function deny(block: NonNullable<Assessment["block"]>): PolicyDecision {
  return { decision: "deny", risk: "critical", reason: block.reason, code: block.code };
}

/**
 * The project's own code (a script, its tests, a build) is low only while a working sandbox
 * contains it; without one it can reach everything the user can, so it is at least medium.
 */
function outsideSandbox(assessment: Assessment, input: PolicyInput): Assessment {
  if (input.sandbox || !assessment.runsProjectCode || riskRank(assessment.risk) >= riskRank("medium"))
    return assessment;
  return {
    ...assessment,
    risk: "medium",
    reason: `${assessment.reason}, and commands run without a sandbox`,
  };
}

/** In the sandbox a call that needs the network asks first, whatever the mode would say. */
function withNetworkQuestion(decision: PolicyDecision, input: PolicyInput): PolicyDecision {
  if (!input.sandbox || input.sandbox.networkAlwaysOn || decision.decision !== "allow") return decision;
  return {
    ...decision,
    decision: "ask",
    reason: `${decision.reason}; it needs the network, which the sandbox cuts off`,
  };
}

function decide(input: PolicyInput, subjects: CallSubjects, assessment: Assessment): PolicyDecision {
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
  // An allow rule never waves through a critical call — a sensitive file, or a command the analysis
  // found writing one: otherwise `allow: ["edit_file"]` or `run_terminal_cmd(cp *)` would let the
  // model rewrite the settings that hold the rules.
  if (matched?.behavior === "allow" && risk !== "critical") {
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

async function assess(
  tool: JudgedTool,
  args: unknown,
  { projectRoot, latheHome }: { projectRoot: string; latheHome: string },
): Promise<Assessment> {
  // The arguments were validated against this very tool's schema before they reach the policy.
  if (tool.assess) return tool.assess(args as never, { projectRoot, latheHome });
  const risk = tool.risk(args as never, { projectRoot });
  return { risk, reason: `${tool.name} is ${risk} risk` };
}
