export { type SavedPlan, savePlanFile } from "./planFile.js";
export { planRunPrompt } from "./planPrompt.js";
export { type GuardedTodo, stopGuard } from "./stopGuard.js";
export {
  analyzeTaskComplexity,
  type ComplexityAnalysis,
  type ComplexityLevel,
  complexityHints,
  strategyHint,
} from "./taskComplexity.js";
export { SessionTodoList, type TodoList, todoProgress } from "./todoList.js";
