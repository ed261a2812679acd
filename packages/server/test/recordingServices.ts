import {
  type McpServerEntry,
  type RejectParts,
  type ServiceResult,
  served,
  type WorkspaceServices,
} from "@lathe/server";

export interface ServiceCall {
  method: keyof WorkspaceServices;
  args: unknown[];
}

/**
 * Workspace services with fixed answers, recording each call, to see what the routes hand over
 * after validation and how they answer each kind of failure. The real ones (the CLI's) are tested
 * against a real `lathe serve` in packages/cli/test.
 */
export class RecordingServices implements WorkspaceServices {
  readonly calls: ServiceCall[] = [];
  /** Runs inside `restoreCheckpoint`, to look at the server while the restore happens. */
  duringRestore: () => void = () => {};
  /** Replaces the next answer of a method. */
  private readonly overrides = new Map<keyof WorkspaceServices, ServiceResult<unknown>>();

  failNext(method: keyof WorkspaceServices, result: ServiceResult<never>): void {
    this.overrides.set(method, result);
  }

  private answer<T>(method: keyof WorkspaceServices, args: unknown[], value: T): Promise<ServiceResult<T>> {
    this.calls.push({ method, args });
    const override = this.overrides.get(method);
    this.overrides.delete(method);
    return Promise.resolve((override as ServiceResult<T> | undefined) ?? served(value));
  }

  info() {
    return this.answer("info", [], {
      version: "0.0.0-test",
      defaultProjectRoot: "/",
      models: ["openai:gpt-4.1"],
      defaultModel: "openai:gpt-4.1",
      defaultMode: "agent" as const,
      defaultApprovalMode: "ask_first" as const,
    });
  }
  storedSessions(projectRoot: string | undefined) {
    return this.answer("storedSessions", [projectRoot], []);
  }
  checkpoints(sessionId: string) {
    return this.answer("checkpoints", [sessionId], []);
  }
  checkpointDiff(sessionId: string, checkpointId: string) {
    return this.answer("checkpointDiff", [sessionId, checkpointId], { files: [], patch: "" });
  }
  checkpointChanges(sessionId: string, checkpointId: string) {
    return this.answer("checkpointChanges", [sessionId, checkpointId], { files: [] });
  }
  rejectChanges(sessionId: string, checkpointId: string, parts: RejectParts) {
    return this.answer("rejectChanges", [sessionId, checkpointId, parts], {
      written: [parts.path],
      removed: [],
      before: "before-reject",
    });
  }
  restoreCheckpoint(
    sessionId: string,
    checkpointId: string,
    parts: { code: boolean; conversation: boolean },
  ) {
    this.duringRestore();
    return this.answer("restoreCheckpoint", [sessionId, checkpointId, parts], {
      written: ["a.txt"],
      removed: [],
      messagesRemoved: 2,
      backupSession: "backup-id",
    });
  }
  trace(sessionId: string) {
    return this.answer("trace", [sessionId], { spans: [] });
  }
  settings() {
    return this.answer("settings", [], { settings: {}, providers: [] });
  }
  updateSettings(changes: Record<string, unknown>) {
    return this.answer("updateSettings", [changes], { settings: changes, providers: [] });
  }
  storeKey(provider: string, key: string) {
    return this.answer("storeKey", [provider, key], { stored: true as const });
  }
  memories(projectRoot: string) {
    return this.answer("memories", [projectRoot], { memories: [] });
  }
  deleteMemory(projectRoot: string, memoryId: string) {
    return this.answer("deleteMemory", [projectRoot, memoryId], { deleted: true as const });
  }
  rules(projectRoot: string) {
    return this.answer("rules", [projectRoot], { rules: [] });
  }
  mcpServers(projectRoot: string) {
    return this.answer("mcpServers", [projectRoot], { servers: [] });
  }
  addMcpServer(projectRoot: string, name: string, entry: McpServerEntry) {
    return this.answer("addMcpServer", [projectRoot, name, entry], { name, file: "/home/u/.lathe/mcp.json" });
  }
  removeMcpServer(projectRoot: string, name: string) {
    return this.answer("removeMcpServer", [projectRoot, name], { name, file: "/home/u/.lathe/mcp.json" });
  }
}
