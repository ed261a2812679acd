import type { Message, Mode, Usage } from "@lathe/protocol";
import type { CustomCommand } from "../context/commands/customCommands.js";
import type { ConfiguredHook } from "../hooks/hookConfig.js";
import type { ModelClient } from "../llm/modelStream.js";
import type { SessionMcp } from "../mcp/mcpSessionFeed.js";
import type { ApprovalMode } from "../policy/approvalMode.js";
import type { PermissionRule } from "../policy/policyTypes.js";
import type { SandboxSettings } from "../policy/sandbox/sandboxTypes.js";
import type { MemoryBook } from "../store/memoryRecords.js";
import type { SessionStore } from "../store/sessionStore.js";
import type { EditorBuffers } from "../tools/editorBuffers.js";
import type { OutputLimits } from "../tools/tool.js";
import type { ApprovalAnswer, ApprovalRequest } from "../tools/toolApproval.js";
import type { ToolRegistry } from "../tools/toolRegistry.js";
import type { UserQuestions } from "../tools/toolServices.js";
import type { Checkpointer } from "./sessionCheckpoints.js";
import type { ContextSettings } from "./sessionContext.js";
import type { SubagentSettings } from "./subagents/subagents.js";

export interface AgentSessionOptions {
  projectRoot: string;
  latheHome: string;
  model: ModelClient;
  tools: ToolRegistry;
  /** The MCP servers' notices and prompt commands; their tools join `tools` as the servers start. */
  mcp?: SessionMcp;
  mode?: Mode;
  approvalMode?: ApprovalMode;
  /** Tool rounds per user message before the run stops with `iteration_limit`. */
  maxIterations?: number;
  /** Only these tools are offered (`--tools`, a pipeline agent's list); absent: all the mode allows. */
  offeredTools?: readonly string[];
  /** How a face answers approval requests; without one, every request is rejected. */
  requestApproval?: (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalAnswer>;
  outputLimits?: OutputLimits;
  /** Permission rules from every settings layer (`loadRuleLayers`); "always" answers add to them. */
  rules?: readonly PermissionRule[];
  /** An unanswered approval counts as rejected after this long (default 5 minutes). */
  approvalTimeoutMs?: number;
  /** The user's hooks (`loadHooks`): PreToolUse, PostToolUse, UserPromptSubmit… */
  hooks?: readonly ConfiguredHook[];
  /** Sandboxing of shell commands; absent means commands run unsandboxed. */
  sandbox?: SandboxSettings;
  /** Every key the process knows (`knownSecrets`): the policy refuses calls that would send one away. */
  secrets?: readonly string[];
  sessionId?: string;
  shell?: string;
  /** Where messages and events are written as they happen; absent means nothing outlives the process. */
  store?: SessionStore;
  /** The conversation so far, when resuming a stored session. */
  history?: readonly Message[];
  /** What the resumed session has cost so far, so session totals carry on from it. */
  priorUsage?: Usage;
  /** Snapshots of the project at each user message and before each mutating call (SPEC §7). */
  checkpoints?: Checkpointer;
  /** Rules, windows, compaction, loop thresholds, dynamic context (SPEC §6). */
  context?: ContextSettings;
  /** Sub-agents for `task` (SPEC §4); `depth` is this session's own depth (0 for the user's). */
  subagents?: SubagentSettings & { depth?: number };
  /** Answers `ask_user` questions; absent in headless runs, where the tool says no one can answer. */
  askUser?: UserQuestions["ask"];
  /** Memories kept across sessions (`update_memory`); their text goes into every prompt. */
  memories?: MemoryBook & { memoriesForPrompt(): string[] };
  /** A client for another `provider:model` (an agent definition's model); the session's own when absent. */
  modelFor?: (modelId: string) => ModelClient | undefined;
  /**
   * Scrubs secrets from tool results and output (`Persistence.redact`); without it, a redactor of
   * `secrets`, else of this process's `knownSecrets`.
   */
  redact?: (text: string) => string;
  /** Variables shell commands keep although they look secret (`shell.passEnvironment`). */
  passEnvironment?: readonly string[];
  /** The custom slash commands a message may use, already loaded (`loadCustomCommands`). */
  commands?: readonly CustomCommand[];
  /** The editor's open buffers, read by the file tools instead of the disk (`lathe acp`). */
  editorBuffers?: EditorBuffers;
}
