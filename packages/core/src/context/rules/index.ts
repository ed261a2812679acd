export { type FrontMatter, type FrontMatterValue, parseFrontMatter } from "./frontMatter.js";
export { type LoadRulesOptions, loadRules } from "./loadRules.js";
export type { RenderedRules } from "./renderRules.js";
export { RuleBook, userRulesName } from "./ruleBook.js";
export {
  defaultRuleLimits,
  type ProjectRule,
  type RuleKind,
  type RuleLimits,
  type RuleLoadError,
} from "./ruleTypes.js";
