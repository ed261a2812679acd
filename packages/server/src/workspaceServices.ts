import type {
  CheckpointChangesReply,
  CheckpointDiffReply,
  CheckpointRejectReply,
  CheckpointRestoreReply,
  CheckpointSummary,
  McpServerList,
  McpServerStatusList,
  MemoryList,
  RuleList,
  ServerInfo,
  SettingsReply,
  StoredSessionSummary,
  TraceReply,
  TrustReply,
} from "@lathe/protocol";
import type { CloudServices } from "./cloudServices.js";
import type { ServiceResult } from "./serviceResult.js";

/** What to put back: both by default; `code: false` is the conversation alone and the reverse. */
/** An MCP server as `mcp.json` holds it: a command to start (stdio) or a URL (HTTP). */
export type McpServerEntry =
  | { command: string; args: string[]; env?: Record<string, string> }
  | { url: string; headers?: Record<string, string> };

/** The file an MCP server was added to or removed from. */
export interface McpServerChange {
  name: string;
  file: string;
}

/** One file's rejected changes: the hunks (by index into the review's), or the whole file. */
export interface RejectParts {
  path: string;
  /** The file's version the review showed. */
  version: string;
  hunks?: number[];
}

export interface RestoreParts {
  code: boolean;
  conversation: boolean;
}

/** A restore as the services report it; the server adds the reopened session's stream. */
export type CheckpointRestored = Omit<CheckpointRestoreReply, "streamId">;

/**
 * What the server needs from its face besides sessions: where the database, the settings and the
 * credentials live, and how the face reads them. Every project root given is absolute, real (symlinks
 * resolved) and an existing directory; every session id is exact.
 */
export interface WorkspaceServices {
  info(): Promise<ServiceResult<ServerInfo>>;
  /** Newest first; every project's when `projectRoot` is absent. */
  storedSessions(projectRoot: string | undefined): Promise<ServiceResult<StoredSessionSummary[]>>;
  /** Oldest first. */
  checkpoints(sessionId: string): Promise<ServiceResult<CheckpointSummary[]>>;
  checkpointDiff(sessionId: string, checkpointId: string): Promise<ServiceResult<CheckpointDiffReply>>;
  /** The changes since the checkpoint, file by file and hunk by hunk. */
  checkpointChanges(sessionId: string, checkpointId: string): Promise<ServiceResult<CheckpointChangesReply>>;
  /** Called only while the session is not running: takes back one file's rejected changes. */
  rejectChanges(
    sessionId: string,
    checkpointId: string,
    parts: RejectParts,
  ): Promise<ServiceResult<CheckpointRejectReply>>;
  /** Called only while no engine holds the session: the server closes an open one first. */
  restoreCheckpoint(
    sessionId: string,
    checkpointId: string,
    parts: RestoreParts,
  ): Promise<ServiceResult<CheckpointRestored>>;
  trace(sessionId: string): Promise<ServiceResult<TraceReply>>;
  settings(): Promise<ServiceResult<SettingsReply>>;
  /** Merges `changes` into the stored settings (`null` removes a field); nothing is written when invalid. */
  updateSettings(changes: Record<string, unknown>): Promise<ServiceResult<SettingsReply>>;
  storeKey(provider: string, key: string): Promise<ServiceResult<{ stored: true }>>;
  memories(projectRoot: string): Promise<ServiceResult<MemoryList>>;
  deleteMemory(projectRoot: string, memoryId: string): Promise<ServiceResult<{ deleted: true }>>;
  rules(projectRoot: string): Promise<ServiceResult<RuleList>>;
  mcpServers(projectRoot: string): Promise<ServiceResult<McpServerList>>;
  /** Adds a server to the user's own `mcp.json` (never a project's); an existing name is refused. */
  addMcpServer?(
    projectRoot: string,
    name: string,
    entry: McpServerEntry,
  ): Promise<ServiceResult<McpServerChange>>;
  /** Removes a server from the user's own `mcp.json`. */
  removeMcpServer?(projectRoot: string, name: string): Promise<ServiceResult<McpServerChange>>;
  /** Starts the servers a session would start, reads how each fared and what it offers, stops them. */
  mcpStatus?(projectRoot: string): Promise<ServiceResult<McpServerStatusList>>;
  /** Whether the project's hooks, MCP servers, allow rules and agents take effect (workspace trust). */
  trust?(projectRoot: string): Promise<ServiceResult<TrustReply>>;
  /**
   * Records trust for the project's files as they are now; with `fingerprint`, only when they are
   * still the files it was computed from (a `conflict` otherwise).
   */
  grantTrust?(projectRoot: string, fingerprint: string | undefined): Promise<ServiceResult<TrustReply>>;
  /** The cloud task queue; absent, the Cloud routes say this server has none. */
  cloud?: CloudServices;
}
