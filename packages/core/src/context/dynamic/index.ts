export type { AssembledContext, ContextSection } from "./contextAssembly.js";
export type { CountTokens } from "./contextText.js";
export { buildDynamicContext, type DynamicContext, type DynamicContextInputs } from "./dynamicContext.js";
export { type DynamicContextSettings, dynamicContextDefaults } from "./dynamicContextSettings.js";
export {
  type EditorStateApplied,
  EditorStateTracker,
  type EditorStateUpdate,
} from "./editorStateTracker.js";
export type { KnownLints, LintProblem } from "./lintProblems.js";
export type { RecentEdit } from "./recentEditsSource.js";
