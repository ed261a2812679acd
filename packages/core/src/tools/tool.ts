import type { EventDraft, LatheErrorInfo, Risk } from "@lathe/protocol";
import type { z } from "zod";
import type { TodoList } from "../planning/todoList.js";
import type { Assessment } from "../policy/policyTypes.js";
import type { SandboxContext } from "../policy/sandbox/sandboxTypes.js";
import type { MemoryBook } from "../store/memoryRecords.js";
import type { EditorBuffers } from "./editorBuffers.js";
import type { FileReadLedger } from "./fileReadLedger.js";
import type { LintBaseline } from "./lints/lintBaseline.js";
import type { BackgroundTerminals } from "./terminals/backgroundTerminals.js";
import type { CodeSearchIndex, RuleCatalog, SubagentLauncher, UserQuestions } from "./toolServices.js";

export type ToolKind =
  | "read"
  | "edit"
  | "delete"
  | "move"
  | "search"
  | "execute"
  | "fetch"
  | "think"
  | "other";

/** Kinds that change nothing; ask and plan modes offer only these. */
export const readOnlyKinds: ReadonlySet<ToolKind> = new Set(["read", "search", "think", "fetch"]);

/** Output caps applied to every tool's text before the model sees it (SPEC §4). */
export interface OutputLimits {
  maxLines: number;
  maxBytes: number;
}

export const defaultOutputLimits: OutputLimits = { maxLines: 2000, maxBytes: 50 * 1024 };

/** What a tool gets from the engine for one call. Plain values: no global configuration. */
export interface ToolContext {
  /** Project root, already resolved with realpath. */
  projectRoot: string;
  sessionId: string;
  callId: string;
  /** `$LATHE_HOME`, where spilled output lives. */
  latheHome: string;
  /** Aborted on cancel or timeout; tools must stop promptly and kill what they started. */
  signal: AbortSignal;
  /** Streams partial output to the UI while the tool runs. */
  emitOutput(stream: "stdout" | "stderr", chunk: string): void;
  /** Reads noted in this session, for stale-write checks. */
  fileReads: FileReadLedger;
  /** The session's last known lint problems per file; writes report the new ones. Absent: no checks. */
  lints?: LintBaseline;
  /** Commands of this session running in the background, by id. */
  terminals: BackgroundTerminals;
  outputLimits: OutputLimits;
  /**
   * How shell commands are sandboxed, set by the engine alone (never from model arguments).
   * Absent: commands run unsandboxed, as the user.
   */
  sandbox?: SandboxContext;
  /** Rules the model may fetch by name; absent when the project has none. */
  rules?: RuleCatalog;
  /** The project's code index; absent when it is not built (codebase_search says so). */
  codeSearch?: CodeSearchIndex;
  /** The session's todo list (`todo_write`). */
  todos?: TodoList;
  /** Someone who can answer questions; absent in headless runs. */
  questions?: UserQuestions;
  /** Memories for later sessions. */
  memories?: MemoryBook;
  /** Sub-agents for `task`; absent inside a sub-agent that may not delegate further. */
  subagents?: SubagentLauncher;
  /** Emits an engine event on the session's stream (sub-agent progress, todo changes). */
  emitEvent?: (draft: EventDraft) => void;
  /**
   * Scrubs known secrets from everything a call returns, streams or spills, before the model, a
   * face or the disk sees it. Absent: the secrets of Lathe's own environment and key formats.
   */
  redact?: (text: string) => string;
  /** Variables shell commands keep although they look secret (`shell.passEnvironment`). */
  passEnvironment?: readonly string[];
  /** The editor the session serves, when it shares its open buffers (over ACP). */
  editorBuffers?: EditorBuffers;
}

export type ToolResult =
  | { ok: true; output: string; metadata?: Record<string, unknown> }
  | { ok: false; error: LatheErrorInfo; output?: string };

/**
 * A tool as data: the scheduler validates arguments with `schema`, asks the policy using
 * `kind` and `risk`, enforces `timeoutMs`, then calls `execute`.
 */
export interface ToolDefinition<Schema extends z.ZodType = z.ZodType> {
  name: string;
  /** Written for the model; kept in a markdown file beside the tool. */
  description: string;
  schema: Schema;
  kind: ToolKind;
  risk(args: z.infer<Schema>, ctx: Pick<ToolContext, "projectRoot">): Risk;
  /**
   * A fuller judgement than `risk` for tools that can be hard-blocked or need the network
   * (run_terminal_cmd's command analysis); the policy engine prefers it when present.
   */
  assess?(args: z.infer<Schema>, ctx: Pick<ToolContext, "projectRoot" | "latheHome">): Promise<Assessment>;
  timeoutMs: number;
  /** JSON Schema shown to the model instead of the one derived from `schema` (MCP tools: the server's own). */
  inputJsonSchema?: Record<string, unknown>;
  /** How output is shortened when over the cap: shell output keeps more of its end. */
  truncation: "head" | "head_tail";
  /**
   * Whether the tool can work here and now (configured, installed); absent means always. One
   * that cannot is not offered: its schema would weigh on every request for a call that can only
   * fail. Asked before each request, so a setting changed mid-session counts.
   */
  available?(): boolean;
  execute(args: z.infer<Schema>, ctx: ToolContext): Promise<ToolResult>;
}

/** Keeps the schema's type attached to the functions when a tool is declared. */
export function defineTool<Schema extends z.ZodType>(tool: ToolDefinition<Schema>): ToolDefinition<Schema> {
  return tool;
}

/** Erased form for collections of tools of different schemas. */
export type AnyTool = ToolDefinition<z.ZodType>;
