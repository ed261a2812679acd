import { LatheError } from "@lathe/protocol";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ErrorCode, McpError, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { clientInfo } from "./clientInfo.js";
import type { McpServerConfig } from "./mcpConfig.js";
import { collectPages } from "./pagination.js";
import { createTransport, endRemoteSession, type ServerTransport, stderrNote } from "./serverTransport.js";

export interface ConnectionOptions {
  /** For connecting and listing the tools, together. */
  startTimeoutMs: number;
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
  /** What the server offered when it last started. */
  tools: Tool[] = [];
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
    try {
      await client.connect(transport, startup);
      this.tools = client.getServerCapabilities()?.tools
        ? await collectPages(
            (cursor) => client.listTools({ cursor }, startup),
            (page) => page.tools,
          )
        : [];
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
