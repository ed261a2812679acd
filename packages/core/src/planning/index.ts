export { type GuardedTodo, stopGuard } from "./stopGuard.js";
export {
  analyzeTaskComplexity,
  type ComplexityAnalysis,
  type ComplexityLevel,
  complexityHints,
  strategyHint,
} from "./taskComplexity.js";
export { SessionTodoList, todoProgress } from "./todoList.js";
