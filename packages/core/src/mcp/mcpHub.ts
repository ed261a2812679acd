import { LatheError } from "@lathe/protocol";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type {
  McpListing,
  McpResourceInfo,
  McpResourceSource,
  McpServerFailure,
} from "../tools/mcpResourceSource.js";
import { contentText, resourceContentsText } from "./contentText.js";
import type { McpServerConfig } from "./mcpConfig.js";
import { McpConnection, type McpListKind } from "./mcpConnection.js";
import type { McpHubChange, McpServerStatus } from "./mcpServerStatus.js";
import { createMcpTool, type McpToolDefinition } from "./mcpTool.js";
import { collectPages } from "./pagination.js";

export type { McpListing, McpResourceInfo, McpServerFailure } from "../tools/mcpResourceSource.js";

export interface McpHubOptions {
  /** How long a server gets to start and list its tools; 10 s unless given. */
  startTimeoutMs?: number;
  /** How long one tool call (or other request) may take; 60 s unless given. */
  toolTimeoutMs?: number;
}

export interface McpStartReport {
  failures: McpServerFailure[];
}

export interface McpPromptInfo {
  server: string;
  name: string;
  title?: string;
  description?: string;
  arguments: { name: string; description?: string; required: boolean }[];
}

export interface McpPromptText {
  description?: string;
  messages: { role: "user" | "assistant"; text: string }[];
}

const defaultStartTimeoutMs = 10_000;
const defaultToolTimeoutMs = 60_000;

/**
 * The session's MCP servers: started together, offered as Lathe tools, closed together. A server
 * that fails is reported and left out; it never stops the session or the other servers. Each
 * server is announced (`onChange`) as soon as it is ready or has failed, so a session can go on
 * while slow servers start.
 */
export class McpHub implements McpResourceSource {
  private readonly connections = new Map<string, McpConnection>();
  private readonly toolTimeoutMs: number;
  private readonly startTimeoutMs: number;
  /** Every configured server, in configuration order, and how its start went. */
  private readonly statuses = new Map<string, { config: McpServerConfig; failed?: string }>();
  /** Servers that started at least once: their tools are offered even while a restart is due. */
  private readonly startedOnce = new Set<string>();
  private readonly listeners = new Set<(change: McpHubChange) => void>();
  private started = false;

  constructor(options: McpHubOptions = {}) {
    this.startTimeoutMs = options.startTimeoutMs ?? defaultStartTimeoutMs;
    this.toolTimeoutMs = options.toolTimeoutMs ?? defaultToolTimeoutMs;
  }

  /**
   * Connects every server in parallel; resolves once each has started or failed. Each one is
   * announced to `onChange` listeners as it settles: a caller that must not wait for slow servers
   * leaves this promise running.
   */
  async start(configs: readonly McpServerConfig[], signal: AbortSignal): Promise<McpStartReport> {
    // A second start would replace connections without closing them, leaving their servers running.
    if (this.started) throw new Error("An McpHub starts once; make a new one to start again.");
    this.started = true;
    for (const config of configs) this.statuses.set(config.name, { config });
    const outcomes = await Promise.all(configs.map((config) => this.startOne(config, signal)));
    const failures = outcomes.filter((failure) => failure !== undefined);
    return { failures: [...failures, ...this.leftOutTools()] };
  }

  /** Told when a server is ready, has failed to start, or changed one of its lists. */
  onChange(listener: (change: McpHubChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The tools of the servers that started, named `mcp__<server>__<tool>`; of one server when
   * named. A name two servers' tools share goes to the server configured first.
   */
  tools(server?: string): McpToolDefinition[] {
    const taken = new Set<string>();
    const offered: McpToolDefinition[] = [];
    for (const connection of this.startedConnections()) {
      for (const info of connection.tools) {
        const tool = createMcpTool(connection, info, this.toolTimeoutMs);
        if (taken.has(tool.name)) continue;
        taken.add(tool.name);
        if (server === undefined || connection.name === server) offered.push(tool);
      }
    }
    return offered;
  }

  /** Every configured server: its state, what it offers, and why it failed or stopped. */
  status(): McpServerStatus[] {
    return [...this.statuses.values()].map(({ config, failed }) => {
      const connection = this.connections.get(config.name);
      const base = { name: config.name, transport: config.transport };
      if (failed !== undefined)
        return { ...base, state: "failed", error: failed, tools: [], resources: [], prompts: [] };
      if (connection === undefined || !this.startedOnce.has(config.name)) {
        return { ...base, state: "starting", tools: [], resources: [], prompts: [] };
      }
      return {
        ...base,
        state: connection.isRunning ? "running" : "stopped",
        error: connection.isRunning ? undefined : connection.stoppedBecause || undefined,
        tools: connection.tools.map((tool) => ({ name: tool.name, description: tool.description })),
        resources: connection.resources.map((resource) => ({
          uri: resource.uri,
          name: resource.name,
          description: resource.description,
          mimeType: resource.mimeType,
        })),
        prompts: connection.prompts.map((prompt) => ({
          name: prompt.name,
          description: prompt.description,
          arguments: (prompt.arguments ?? []).map((argument) => ({
            name: argument.name,
            description: argument.description,
            required: argument.required === true,
          })),
        })),
      };
    });
  }

  /** Whether a server of this name is configured. */
  hasServer(name: string): boolean {
    return this.statuses.has(name);
  }

  /** Whether some started server declared resources. */
  offersResources(): boolean {
    return this.startedConnections().some((connection) => connection.offersResources);
  }

  resources(signal?: AbortSignal, only?: string): Promise<McpListing<McpResourceInfo>> {
    return this.gather(signal, only, async (client, server, options) => {
      if (!client.getServerCapabilities()?.resources) return [];
      const resources = await collectPages(
        (cursor) => client.listResources({ cursor }, options),
        (page) => page.resources,
      );
      return resources.map((resource) => ({
        server,
        uri: resource.uri,
        name: resource.name,
        title: resource.title,
        description: resource.description,
        mimeType: resource.mimeType,
      }));
    });
  }

  /** A resource's contents as text; binary parts are described rather than included. */
  async readResource(server: string, uri: string, signal?: AbortSignal): Promise<string> {
    const result = await this.request(server, signal, (client, options) =>
      client.readResource({ uri }, options),
    );
    return result.contents.map(resourceContentsText).join("\n");
  }

  prompts(signal?: AbortSignal): Promise<McpListing<McpPromptInfo>> {
    return this.gather(signal, undefined, async (client, server, options) => {
      if (!client.getServerCapabilities()?.prompts) return [];
      const prompts = await collectPages(
        (cursor) => client.listPrompts({ cursor }, options),
        (page) => page.prompts,
      );
      return prompts.map((prompt) => ({
        server,
        name: prompt.name,
        title: prompt.title,
        description: prompt.description,
        arguments: (prompt.arguments ?? []).map((argument) => ({
          name: argument.name,
          description: argument.description,
          required: argument.required === true,
        })),
      }));
    });
  }

  /** A prompt filled in by its server, each message as text. */
  async getPrompt(
    server: string,
    name: string,
    args: Record<string, string> = {},
    signal?: AbortSignal,
  ): Promise<McpPromptText> {
    const result = await this.request(server, signal, (client, options) =>
      client.getPrompt({ name, arguments: args }, options),
    );
    return {
      description: result.description,
      messages: result.messages.map((message) => ({
        role: message.role,
        text: contentText([message.content]),
      })),
    };
  }

  /** Closes every client and ends the stdio servers' process groups. */
  async close(): Promise<void> {
    const connections = [...this.connections.values()];
    this.connections.clear();
    this.startedOnce.clear();
    await Promise.all(connections.map((connection) => connection.close()));
  }

  private async startOne(
    config: McpServerConfig,
    signal: AbortSignal,
  ): Promise<McpServerFailure | undefined> {
    const connection = new McpConnection(config, {
      startTimeoutMs: this.startTimeoutMs,
      requestTimeoutMs: this.toolTimeoutMs,
      onListChanged: (list: McpListKind) =>
        this.announce({ type: "list_changed", server: config.name, list }),
    });
    // Registered before it starts, so that close() during the start reaches it.
    this.connections.set(config.name, connection);
    try {
      await connection.start(signal);
    } catch (error) {
      if (this.connections.get(config.name) === connection) this.connections.delete(config.name);
      const failure = { server: config.name, error: messageOf(error) };
      const status = this.statuses.get(config.name);
      if (status !== undefined) status.failed = failure.error;
      this.announce({ type: "failed", ...failure });
      return failure;
    }
    if (this.connections.get(config.name) !== connection) return undefined;
    this.startedOnce.add(config.name);
    this.announce({ type: "ready", server: config.name });
    return undefined;
  }

  /** Connections that started at least once, in configuration order. */
  private startedConnections(): McpConnection[] {
    return [...this.statuses.keys()].flatMap((name) => {
      const connection = this.connections.get(name);
      return connection !== undefined && this.startedOnce.has(name) ? [connection] : [];
    });
  }

  /** Tools whose Lathe name another server's tool already has. */
  private leftOutTools(): McpServerFailure[] {
    const taken = new Set<string>();
    const failures: McpServerFailure[] = [];
    for (const connection of this.startedConnections()) {
      for (const info of connection.tools) {
        const name = createMcpTool(connection, info, this.toolTimeoutMs).name;
        if (!taken.has(name)) {
          taken.add(name);
          continue;
        }
        failures.push({
          server: connection.name,
          error: `tool ${info.name} left out: its name ${name} is taken by another MCP tool`,
        });
      }
    }
    return failures;
  }

  private announce(change: McpHubChange): void {
    for (const listener of this.listeners) listener(change);
  }

  /** One request to one server, failing with a Lathe error that names the server. */
  private async request<T>(
    server: string,
    signal: AbortSignal | undefined,
    run: (client: Client, options: RequestOptions) => Promise<T>,
  ): Promise<T> {
    const connection = this.connections.get(server);
    if (connection === undefined || !this.startedOnce.has(server)) {
      const status = this.statuses.get(server);
      const why =
        status === undefined
          ? `No MCP server named ${server} is running.`
          : status.failed !== undefined
            ? `MCP server ${server} did not start: ${status.failed}`
            : `MCP server ${server} is still starting; try again shortly.`;
      throw new LatheError("E_TOOL_EXECUTION", why);
    }
    const options = this.requestOptions(signal);
    try {
      return await connection.use(options.signal, (client) => run(client, options));
    } catch (error) {
      if (error instanceof LatheError) throw error;
      throw new LatheError("E_TOOL_EXECUTION", `MCP server ${server} failed: ${messageOf(error)}`, {
        cause: error,
      });
    }
  }

  /** The same request to every running server, in parallel; a failing server is listed, not fatal. */
  private async gather<Item>(
    signal: AbortSignal | undefined,
    only: string | undefined,
    run: (client: Client, server: string, options: RequestOptions) => Promise<Item[]>,
  ): Promise<McpListing<Item>> {
    const listing: McpListing<Item> = { items: [], failures: [] };
    const servers = this.startedConnections()
      .map((connection) => connection.name)
      .filter((server) => only === undefined || server === only);
    const results = await Promise.allSettled(
      servers.map((server) =>
        this.request(server, signal, (client, options) => run(client, server, options)),
      ),
    );
    // In the servers' order, whichever answered first.
    for (const [index, result] of results.entries()) {
      if (result.status === "fulfilled") listing.items.push(...result.value);
      else listing.failures.push({ server: servers[index] ?? "", error: messageOf(result.reason) });
    }
    return listing;
  }

  private requestOptions(signal: AbortSignal | undefined): RequestOptions {
    return { signal: signal ?? new AbortController().signal, timeout: this.toolTimeoutMs };
  }
}

interface RequestOptions {
  signal: AbortSignal;
  timeout: number;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
