import { LatheError } from "@lathe/protocol";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { contentText, resourceContentsText } from "./contentText.js";
import type { McpServerConfig } from "./mcpConfig.js";
import { McpConnection } from "./mcpConnection.js";
import { createMcpTool, type McpToolDefinition } from "./mcpTool.js";
import { collectPages } from "./pagination.js";

export interface McpHubOptions {
  /** How long a server gets to start and list its tools; 10 s unless given. */
  startTimeoutMs?: number;
  /** How long one tool call (or other request) may take; 60 s unless given. */
  toolTimeoutMs?: number;
}

/** Something that went wrong with one server; the others are not affected. */
export interface McpServerFailure {
  server: string;
  error: string;
}

export interface McpStartReport {
  failures: McpServerFailure[];
}

/** Items gathered from every running server, and the servers that could not answer. */
export interface McpListing<Item> {
  items: Item[];
  failures: McpServerFailure[];
}

export interface McpResourceInfo {
  server: string;
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
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
 * that fails is reported and left out; it never stops the session or the other servers.
 */
export class McpHub {
  private readonly connections = new Map<string, McpConnection>();
  private readonly toolTimeoutMs: number;
  private readonly startTimeoutMs: number;
  private offered: McpToolDefinition[] = [];
  private started = false;

  constructor(options: McpHubOptions = {}) {
    this.startTimeoutMs = options.startTimeoutMs ?? defaultStartTimeoutMs;
    this.toolTimeoutMs = options.toolTimeoutMs ?? defaultToolTimeoutMs;
  }

  /** Connects every server in parallel; resolves once each has started or failed. */
  async start(configs: readonly McpServerConfig[], signal: AbortSignal): Promise<McpStartReport> {
    // A second start would replace connections without closing them, leaving their servers running.
    if (this.started) throw new Error("An McpHub starts once; make a new one to start again.");
    this.started = true;
    const outcomes = await Promise.all(configs.map((config) => this.startOne(config, signal)));
    const failures = outcomes.filter((failure) => failure !== undefined);
    const taken = new Set<string>();
    for (const connection of this.connections.values()) {
      for (const info of connection.tools) {
        const tool = createMcpTool(connection, info, this.toolTimeoutMs);
        if (taken.has(tool.name)) {
          failures.push({
            server: connection.name,
            error: `tool ${info.name} left out: its name ${tool.name} is taken by another MCP tool`,
          });
          continue;
        }
        taken.add(tool.name);
        this.offered.push(tool);
      }
    }
    return { failures };
  }

  /** The tools of the servers that started, named `mcp__<server>__<tool>`. */
  tools(): McpToolDefinition[] {
    return [...this.offered];
  }

  resources(signal?: AbortSignal): Promise<McpListing<McpResourceInfo>> {
    return this.gather(signal, async (client, server, options) => {
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
    return this.gather(signal, async (client, server, options) => {
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
    this.offered = [];
    await Promise.all(connections.map((connection) => connection.close()));
  }

  private async startOne(
    config: McpServerConfig,
    signal: AbortSignal,
  ): Promise<McpServerFailure | undefined> {
    const connection = new McpConnection(config, { startTimeoutMs: this.startTimeoutMs });
    // Registered before it starts, so that close() during the start reaches it.
    this.connections.set(config.name, connection);
    try {
      await connection.start(signal);
      return undefined;
    } catch (error) {
      if (this.connections.get(config.name) === connection) this.connections.delete(config.name);
      return { server: config.name, error: messageOf(error) };
    }
  }

  /** One request to one server, failing with a Lathe error that names the server. */
  private async request<T>(
    server: string,
    signal: AbortSignal | undefined,
    run: (client: Client, options: RequestOptions) => Promise<T>,
  ): Promise<T> {
    const connection = this.connections.get(server);
    if (connection === undefined) {
      throw new LatheError("E_TOOL_EXECUTION", `No MCP server named ${server} is running.`);
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
    run: (client: Client, server: string, options: RequestOptions) => Promise<Item[]>,
  ): Promise<McpListing<Item>> {
    const listing: McpListing<Item> = { items: [], failures: [] };
    const servers = [...this.connections.keys()];
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
