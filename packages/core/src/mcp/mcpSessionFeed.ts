import type { ErrorCode } from "@lathe/protocol";
import { createListMcpResourcesTool } from "../tools/builtin/listMcpResources/listMcpResources.js";
import { createReadMcpResourceTool } from "../tools/builtin/readMcpResource/readMcpResource.js";
import type { McpResourceSource } from "../tools/mcpResourceSource.js";
import type { AnyTool } from "../tools/tool.js";
import type { ToolRegistry } from "../tools/toolRegistry.js";
import type { McpServerConfig } from "./mcpConfig.js";
import type { McpHub, McpStartReport } from "./mcpHub.js";
import type { McpHubChange } from "./mcpServerStatus.js";
import { expandPromptCommand, type PromptExpansion } from "./promptCommand.js";

/** Something a session should tell the user about its MCP servers, as a `notice` event. */
export interface McpNotice {
  level: "info" | "warning";
  code?: ErrorCode;
  message: string;
}

/**
 * How long a session's first request waits for its MCP servers: the usual server is up well
 * within it and its tools are in the first request; one that hangs joins later.
 */
export const mcpStartGraceMs = 3_000;

/** What a session uses of its MCP servers beyond their tools (`AgentSessionOptions.mcp`). */
export interface SessionMcp {
  /** The first time: until every server has started or failed, or the grace time has passed; then at once. */
  startedOrLate(): Promise<void>;
  /** What happened since the last call (servers ready, failed, lists changed), each said once. */
  takeNotices(): McpNotice[];
  /** `/mcp__server__prompt args` filled in; undefined when the text is no such command. */
  expandCommand(text: string, signal: AbortSignal): Promise<PromptExpansion | undefined>;
  /** For `@server:uri` mentions. */
  resources: McpResourceSource;
}

/**
 * Starts a session's MCP servers without holding the session for long (the first request waits
 * `mcpStartGraceMs` at most): each server's tools join the registry
 * as soon as it is ready (the session's next request offers them), the resource tools join once a
 * server with resources is ready, `list_changed` swaps a server's tools, and every one of these
 * steps, and every failure, waits as a notice for the session's next request.
 */
export class McpSessionFeed implements SessionMcp {
  /** Settles once every server has started or failed; the session never waits for it. */
  readonly started: Promise<McpStartReport>;
  private readonly pending: McpNotice[] = [];
  private readonly owned = new Map<string, string[]>();
  private resourceToolsAdded = false;
  private graceOver = false;

  constructor(
    private readonly hub: McpHub,
    private readonly registry: ToolRegistry,
    configs: readonly McpServerConfig[],
    signal: AbortSignal,
  ) {
    hub.onChange((change) => this.apply(change));
    this.started = hub.start(configs, signal);
  }

  get resources(): McpResourceSource {
    return this.hub;
  }

  async startedOrLate(): Promise<void> {
    if (this.graceOver) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, mcpStartGraceMs);
    });
    await Promise.race([this.started.then(() => undefined), late]);
    clearTimeout(timer);
    this.graceOver = true;
  }

  takeNotices(): McpNotice[] {
    return this.pending.splice(0);
  }

  expandCommand(text: string, signal: AbortSignal): Promise<PromptExpansion | undefined> {
    return expandPromptCommand(this.hub, text, signal);
  }

  private apply(change: McpHubChange): void {
    const { server } = change;
    if (change.type === "failed") {
      this.pending.push({
        level: "warning",
        code: "E_MCP_START",
        message: `MCP server ${server} did not start: ${change.error}`,
      });
      return;
    }
    if (change.type === "list_changed" && change.list === "prompts") return;
    const added = this.syncTools(server);
    this.addResourceTools();
    if (change.type === "ready") {
      const offered = added.length > 0 ? `; its tools are offered now: ${added.join(", ")}` : "";
      this.pending.push({ level: "info", message: `MCP server ${server} is ready${offered}.` });
    } else if (change.list === "tools") {
      const tools = this.owned.get(server) ?? [];
      this.pending.push({
        level: "info",
        message: `MCP server ${server} changed its tools; offered now: ${tools.join(", ") || "none"}.`,
      });
    }
  }

  /** The registry holds exactly the server's current tools; returns the names it offers. */
  private syncTools(server: string): string[] {
    const tools = this.hub.tools(server);
    const names = tools.map((tool) => tool.name);
    for (const name of this.owned.get(server) ?? [])
      if (!names.includes(name)) this.registry.unregister(name);
    for (const tool of tools) {
      // A list_changed tool keeps its name but may change its schema or description.
      this.registry.unregister(tool.name);
      this.registry.register(tool);
    }
    this.owned.set(server, names);
    return names;
  }

  private addResourceTools(): void {
    if (this.resourceToolsAdded || !this.hub.offersResources()) return;
    this.resourceToolsAdded = true;
    const tools: AnyTool[] = [createListMcpResourcesTool(this.hub), createReadMcpResourceTool(this.hub)];
    for (const tool of tools) this.registry.register(tool);
  }
}
