export { assembleSystemPrompt, type PromptInputs } from "./assembleSystemPrompt.js";
export type { ContextInputs } from "./contextSections.js";
export { describeEnvironment, type EnvironmentFacts } from "./environment.js";
export { type GitFacts, readGitSummary } from "./gitSummary.js";
