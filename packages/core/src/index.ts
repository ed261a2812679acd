export type { TodoItem } from "@lathe/protocol";
export type { UserImage } from "./agent/agentRun.js";
export {
  AgentSession,
  type AgentSessionOptions,
  type Checkpointer,
  type RunResult,
} from "./agent/agentSession.js";
export type { EventListener } from "./agent/eventBus.js";
export { prefersApplyPatch, toolsForMode, toolsForRequest } from "./agent/modeTools.js";
export { openPersistence, type Persistence, type PersistenceSettings } from "./agent/persistence.js";
export { type ContextSettings, SessionContext } from "./agent/sessionContext.js";
export { generateSessionTitle } from "./agent/sessionTitle.js";
export {
  type AgentDefinition,
  builtinAgents,
  loadAgentDefinitions,
} from "./agent/subagents/agentDefinitions.js";
export * from "./checkpoint/index.js";
export * from "./codeIntel/index.js";
export * from "./context/commands/index.js";
export * from "./context/compaction/index.js";
export * from "./context/dynamic/index.js";
export * from "./context/loopDetection/index.js";
export * from "./context/mentions/index.js";
export * from "./context/prompt/index.js";
export * from "./context/rules/index.js";
export * from "./context/tokens/index.js";
export { atomicWriteFile } from "./fileSystem/atomicWrite.js";
export { type GitExit, type GitOutcome, type GitRequest, runGit } from "./git/gitRunner.js";
export * from "./hooks/index.js";
export * from "./llm/index.js";
export * from "./mcp/index.js";
export * from "./planning/index.js";
export {
  type ApprovalDecision,
  type ApprovalMode,
  approvalModeSchema,
  decideByRisk,
} from "./policy/approvalMode.js";
export { callSubjects } from "./policy/callSubjects.js";
export { analyzeCommand, type CommandAnalysis } from "./policy/commandAnalysis/index.js";
export * from "./policy/networkGuard/index.js";
export { isWithin, resolveProjectPath } from "./policy/pathGuard.js";
export { decidePolicy, type PolicyInput } from "./policy/policyEngine.js";
export type {
  CallSubjects,
  PermissionRule,
  PolicyBehavior,
  PolicyDecision,
  RuleSource,
} from "./policy/policyTypes.js";
export * from "./policy/rules/index.js";
export {
  behaviors,
  keepLocalSettingsOutOfGit,
  readSettingsFile,
  type SettingsRead,
} from "./policy/rules/settingsFiles.js";
export { detectSandbox } from "./policy/sandbox/detectSandbox.js";
export type {
  SandboxContext,
  SandboxDetection,
  SandboxMode,
  SandboxSettings,
} from "./policy/sandbox/sandboxTypes.js";
export { isSensitivePath, type SensitivePathOptions, sensitivePathMatch } from "./policy/sensitivePaths.js";
export { processGroupAlive, signalProcessGroup } from "./processes/processGroup.js";
export { type ProcStat, readProcStat } from "./processIdentity/procStat.js";
export { redactDeep, redactedMarker, secretRedactor } from "./secrets/index.js";
export * from "./store/index.js";
export { BrowserSessions, createBrowserUseTool } from "./tools/builtin/browserUse/browserUse.js";
export { createGenerateImageTool } from "./tools/builtin/generateImage/generateImage.js";
export { builtinTools } from "./tools/builtin/index.js";
export { createWebFetchTool } from "./tools/builtin/webFetch/webFetch.js";
export { createWebSearchTool } from "./tools/builtin/webSearch/webSearch.js";
export type { EditorBuffers } from "./tools/editorBuffers.js";
export { FileReadLedger } from "./tools/fileReadLedger.js";
export { deriveInputSchema, isBuiltinToolSchema } from "./tools/inputSchemas.js";
export { ProjectIgnore } from "./tools/projectIgnore/projectIgnore.js";
export {
  BackgroundTerminals,
  type BackgroundTerminalsOptions,
  type TerminalInfo,
  type TerminalOutput,
  type TerminalStatus,
} from "./tools/terminals/backgroundTerminals.js";
export * from "./tools/tool.js";
export type { ApprovalAnswer, ApprovalRequest, ApprovalScope } from "./tools/toolApproval.js";
export { runTool } from "./tools/toolInvocation.js";
export { ToolRegistry } from "./tools/toolRegistry.js";
export {
  type BatchRun,
  formatError,
  type PendingCall,
  runToolBatch,
  type SchedulerServices,
} from "./tools/toolScheduler.js";
export type {
  CodeSearchHit,
  CodeSearchIndex,
  RuleCatalog,
  SubagentLauncher,
  UserQuestions,
} from "./tools/toolServices.js";
export {
  type BrowserSettings,
  browserDefaults,
  browserSettingsSchema,
} from "./tools/web/browserSettings.js";
export {
  type ImageGenerationSettings,
  type ImageGenerationUserSettings,
  imageGenerationSettingsFrom,
  imageGenerationSettingsSchema,
} from "./tools/web/imageSettings.js";
export {
  type WebFetchSettings,
  type WebFetchUserSettings,
  webFetchSettingsFrom,
  webFetchSettingsSchema,
} from "./tools/web/webFetchSettings.js";
export {
  type WebSearchSettings,
  type WebSearchUserSettings,
  webSearchSettingsFrom,
  webSearchSettingsSchema,
} from "./tools/web/webSearchSettings.js";
export * from "./trace/index.js";
export * from "./trust/index.js";
