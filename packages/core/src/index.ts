export { AgentSession, type AgentSessionOptions, type RunResult } from "./agent/agentSession.js";
export type { EventListener } from "./agent/eventBus.js";
export { prefersApplyPatch, toolsForMode, toolsForRequest } from "./agent/modeTools.js";
export * from "./llm/index.js";
export {
  type ApprovalDecision,
  type ApprovalMode,
  approvalModeSchema,
  decideByRisk,
} from "./policy/approvalMode.js";
export { resolveProjectPath } from "./policy/pathGuard.js";
export { builtinTools } from "./tools/builtin/index.js";
export { FileReadLedger } from "./tools/fileReadLedger.js";
export {
  BackgroundTerminals,
  type BackgroundTerminalsOptions,
  type TerminalInfo,
  type TerminalOutput,
  type TerminalStatus,
} from "./tools/terminals/backgroundTerminals.js";
export * from "./tools/tool.js";
export { runTool } from "./tools/toolInvocation.js";
export { ToolRegistry } from "./tools/toolRegistry.js";
export {
  type ApprovalAnswer,
  type ApprovalRequest,
  formatError,
  type PendingCall,
  runToolBatch,
  type SchedulerDeps,
} from "./tools/toolScheduler.js";
