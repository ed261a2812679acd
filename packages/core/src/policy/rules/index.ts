export { type ApprovalRule, type ApprovalRuleOptions, ruleForApproval } from "./approvalRule.js";
export { latheToolName } from "./claudeToolNames.js";
export { evaluateRules, type RuleMatch } from "./ruleEvaluation.js";
export {
  builtinRules,
  type LoadedRule,
  loadRuleLayers,
  type RuleError,
  type RuleLayerInputs,
  type RuleLayers,
} from "./ruleLayers.js";
export {
  type RemoveRuleResult,
  type RuleStoreOptions,
  removeRule,
  type SaveRuleResult,
  type SaveScope,
  saveRule,
} from "./ruleStore.js";
export { formatRule, type ParsedRule, parseRule } from "./ruleSyntax.js";
export { type FileScope, fileScopes, type SettingsLocations, settingsFileFor } from "./settingsFiles.js";
