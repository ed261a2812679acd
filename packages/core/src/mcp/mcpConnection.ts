import { LatheError } from "@lathe/protocol";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  ErrorCode,
  McpError,
  type Prompt,
  PromptListChangedNotificationSchema,
  type Resource,
  ResourceListChangedNotificationSchema,
  type Tool,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { clientInfo } from "./clientInfo.js";
import type { McpServerConfig } from "./mcpConfig.js";
import { collectPages } from "./pagination.js";
import { createTransport, endRemoteSession, type ServerTransport, stderrNote } from "./serverTransport.js";

/** The lists a server offers and may say changed (`notifications/…/list_changed`). */
export type McpListKind = "tools" | "resources" | "prompts";

export interface ConnectionOptions {
  /** For connecting and listing the tools, resources and prompts, together. */
  startTimeoutMs: number;
  /** How long listing again after a `list_changed` notification may take. */
  requestTimeoutMs: number;
  /** Told once a list the server said changed has been read again. */
  onListChanged?: (list: McpListKind) => void;
}

interface Session {
  client: Client;
  transport: ServerTransport;
}

/**
 * One configured server: its client while it runs, one restart when it has died, and its shutdown.
 * A server's death shows as its transport closing (stdio) or as a failed request (HTTP).
 */
export class McpConnection {
  /** What the server offers: listed at start and again whenever it says a list changed. */
  tools: Tool[] = [];
  resources: Resource[] = [];
  prompts: Prompt[] = [];
  private session: Session | undefined;
  private running = false;
  private closed = false;
  /** A restart was already tried since the server last ran: one per death, not one per call. */
  private restartTried = false;
  private restarting: Promise<Client> | undefined;
  /** Why the server stopped, for the "not running" message. */
  private stopReason = "";

  constructor(
    readonly config: McpServerConfig,
    private readonly options: ConnectionOptions,
  ) {}

  get name(): string {
    return this.config.name;
  }

  /** Whether the server is up now; false before it started, after it died and once closed. */
  get isRunning(): boolean {
    return this.running && !this.closed;
  }

  /** Why the server is not running, when it stopped after having started. */
  get stoppedBecause(): string {
    return this.stopReason;
  }

  /** Whether the server declared resources (the resource tools and `@server:uri` reach them). */
  get offersResources(): boolean {
    return this.session?.client.getServerCapabilities()?.resources !== undefined;
  }

  /** Connects and lists the server's tools; throws an Error saying why it could not. */
  async start(signal: AbortSignal): Promise<Client> {
    const transport = createTransport(this.config);
    const client = new Client(clientInfo, { capabilities: {} });
    // Kept before connecting, so that closing the hub during the start stops this server too.
    this.session = { client, transport };
    client.onclose = () => {
      if (this.session?.client !== client || !this.running) return;
      this.running = false;
      this.stopReason = `it exited${stderrNote(transport)}`;
    };
    const timeout = AbortSignal.timeout(this.options.startTimeoutMs);
    const startup = { signal: AbortSignal.any([signal, timeout]), timeout: this.options.startTimeoutMs };
    this.watchLists(client);
    try {
      await client.connect(transport, startup);
      for (const list of listKinds) await this.list(client, list, startup);
      if (this.closed) throw new Error("the MCP hub was closed");
    } catch (error) {
      await client.close();
      if (this.session?.client === client) this.session = undefined;
      const reason = timeout.aborted
        ? `did not start within ${this.options.startTimeoutMs} ms`
        : signal.aborted
          ? "the start was cancelled"
          : messageOf(error);
      throw new Error(`${reason}${stderrNote(transport)}`);
    }
    this.running = true;
    this.restartTried = false;
    return client;
  }

  /**
   * Runs one request on the live client. A dead server is restarted once first; a request that
   * finds the connection gone marks the server dead, so the next request makes that one try.
   */
  async use<T>(signal: AbortSignal, request: (client: Client) => Promise<T>): Promise<T> {
    const client = await this.liveClient(signal);
    try {
      return await request(client);
    } catch (error) {
      if (signal.aborted || !isConnectionFailure(error)) throw error;
      this.stopped(`the connection failed: ${messageOf(error)}`);
      throw this.notRunning();
    }
  }

  /** A `list_changed` notification makes the list be read again, then the hub is told. */
  private watchLists(client: Client): void {
    const schemas = {
      tools: ToolListChangedNotificationSchema,
      resources: ResourceListChangedNotificationSchema,
      prompts: PromptListChangedNotificationSchema,
    } as const;
    for (const list of listKinds) {
      client.setNotificationHandler(schemas[list], async () => {
        if (this.session?.client !== client) return;
        const options = { signal: AbortSignal.timeout(this.options.requestTimeoutMs) };
        try {
          await this.list(client, list, options);
        } catch {
          // The old list stays: a server that cannot list now is judged at its next call.
          return;
        }
        if (this.session?.client === client) this.options.onListChanged?.(list);
      });
    }
  }

  /** Reads one list, if the server declared the capability; every page of it. */
  private async list(client: Client, list: McpListKind, options: { signal: AbortSignal }): Promise<void> {
    const capabilities = client.getServerCapabilities();
    if (list === "tools") {
      this.tools = capabilities?.tools
        ? await collectPages(
            (cursor) => client.listTools({ cursor }, options),
            (page) => page.tools,
          )
        : [];
    } else if (list === "resources") {
      this.resources = capabilities?.resources
        ? await collectPages(
            (cursor) => client.listResources({ cursor }, options),
            (page) => page.resources,
          )
        : [];
    } else {
      this.prompts = capabilities?.prompts
        ? await collectPages(
            (cursor) => client.listPrompts({ cursor }, options),
            (page) => page.prompts,
          )
        : [];
    }
  }

  /** Closes the client and, for stdio, ends the server's whole process group. */
  async close(): Promise<void> {
    this.closed = true;
    this.running = false;
    await this.restarting?.catch(() => undefined);
    await this.discardSession();
  }

  private liveClient(signal: AbortSignal): Promise<Client> {
    if (this.closed) return Promise.reject(this.notRunning());
    if (this.running && this.session !== undefined) return Promise.resolve(this.session.client);
    if (this.restarting === undefined) {
      if (this.restartTried) return Promise.reject(this.notRunning());
      this.restartTried = true;
      this.restarting = this.restart(signal).finally(() => {
        this.restarting = undefined;
      });
    }
    return this.restarting;
  }

  private async restart(signal: AbortSignal): Promise<Client> {
    await this.discardSession();
    try {
      return await this.start(signal);
    } catch (error) {
      // A restart the user cancelled was not a real try.
      if (signal.aborted) this.restartTried = false;
      this.stopReason = `a restart failed: ${messageOf(error)}`;
      throw this.notRunning();
    }
  }

  private stopped(reason: string): void {
    if (!this.running) return;
    this.running = false;
    this.stopReason = reason;
    // What is left of it (an HTTP session, a hung process) is let go now, not at the restart.
    void this.discardSession();
  }

  private async discardSession(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    if (session === undefined) return;
    await endRemoteSession(session.transport);
    await session.client.close();
  }

  private notRunning(): LatheError {
    const reason = this.closed ? "the session closed it" : this.stopReason;
    return new LatheError(
      "E_TOOL_EXECUTION",
      `MCP server ${this.name} is not running${reason === "" ? "" : ` (${reason})`}.`,
    );
  }
}

const listKinds: readonly McpListKind[] = ["tools", "resources", "prompts"];

/**
 * Whether a failed request means the server is gone: the connection closed, or the transport
 * itself failed (network, HTTP status). Errors the server answered with mean it is alive.
 */
function isConnectionFailure(error: unknown): boolean {
  return !(error instanceof McpError) || error.code === ErrorCode.ConnectionClosed;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
