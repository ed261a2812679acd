import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { signalProcessGroup } from "../processes/processGroup.js";

export interface StdioLaunch {
  command: string;
  args: string[];
  /**
   * Set over the SDK's minimal environment (HOME, PATH, USER…): a server gets a key only when its
   * configuration names it, never Lathe's own provider keys.
   */
  env: Record<string, string>;
  cwd: string;
}

/** How long each step of closing waits: stdin closed, then SIGTERM, then SIGKILL. */
const closeStepMs = 1000;
/** Enough of stderr to say why a server failed to start. */
const stderrTailBytes = 2048;

/**
 * The SDK's stdio transport, but the server leads its own process group: servers are often
 * wrappers (`npx`, `uvx`, shell scripts) whose real work runs in a child, and signalling the
 * wrapper alone would leave that child running. Messages are framed with the SDK's own reader.
 */
export class ProcessGroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcessWithoutNullStreams | undefined;
  private exited: Promise<void> = Promise.resolve();
  /** Once the server has exited and its group was ended, its id may be reused: no more signals. */
  private groupEnded = false;
  private closing: Promise<void> | undefined;
  private readonly readBuffer = new ReadBuffer();
  private stderr = "";

  constructor(private readonly launch: StdioLaunch) {}

  /** The end of what the server wrote on stderr, for failure messages. */
  get stderrTail(): string {
    return this.stderr.trim();
  }

  start(): Promise<void> {
    if (this.child !== undefined) throw new Error("The MCP stdio transport was already started.");
    return new Promise((resolve, reject) => {
      const child = spawn(this.launch.command, this.launch.args, {
        cwd: this.launch.cwd,
        env: { ...getDefaultEnvironment(), ...this.launch.env },
        stdio: ["pipe", "pipe", "pipe"],
        // Windows has no process groups, and there `detached` would open a console window.
        detached: process.platform !== "win32",
        windowsHide: true,
      });
      this.child = child;
      this.exited = new Promise((settle) => child.once("exit", () => settle()));
      child.once("spawn", () => resolve());
      child.on("error", (error) => {
        reject(error);
        this.onerror?.(error);
      });
      // A server gone is a server whose helpers are orphans: they go too, and while one of them
      // lives the group's id cannot be reused. `close` (all pipes shut) follows once they are dead.
      child.once("exit", () => {
        this.signalGroup("SIGKILL");
        this.groupEnded = true;
      });
      child.once("close", () => this.onclose?.());
      child.stdout.on("data", (chunk: Buffer) => this.receive(chunk));
      child.stderr.on("data", (chunk: Buffer) => {
        this.stderr = (this.stderr + chunk.toString("utf8")).slice(-stderrTailBytes);
      });
      for (const stream of [child.stdin, child.stdout, child.stderr]) {
        stream.on("error", (error) => this.onerror?.(error));
      }
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (stdin === undefined || !stdin.writable) return Promise.reject(new Error("Not connected"));
    return new Promise((resolve, reject) => {
      stdin.write(serializeMessage(message), (error) => (error ? reject(error) : resolve()));
    });
  }

  /**
   * Asks politely (stdin closed), then SIGTERM, then SIGKILL, to the whole group; whenever the
   * server exits, the rest of its group is killed with it.
   */
  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    const child = this.child;
    if (child?.pid !== undefined && !this.groupEnded) {
      child.stdin.end();
      for (const signal of ["SIGTERM", "SIGKILL"] as const) {
        if (await this.exitsWithin(closeStepMs)) break;
        this.signalGroup(signal);
      }
      await this.exitsWithin(closeStepMs);
    }
    this.readBuffer.clear();
  }

  private receive(chunk: Buffer): void {
    try {
      this.readBuffer.append(chunk);
    } catch (error) {
      // Over the SDK's message size limit: the stream cannot be framed any more.
      this.onerror?.(asError(error));
      void this.close();
      return;
    }
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.readBuffer.readMessage();
      } catch (error) {
        // A line that is not JSON-RPC (a stray log line on stdout) is skipped, as the SDK does.
        this.onerror?.(asError(error));
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  private signalGroup(signal: NodeJS.Signals): void {
    const child = this.child;
    if (child?.pid === undefined || this.groupEnded) return;
    // Without a group (Windows), the server alone.
    if (!signalProcessGroup(child.pid, signal) && child.exitCode === null && child.signalCode === null) {
      child.kill(signal);
    }
  }

  private exitsWithin(ms: number): Promise<boolean> {
    return Promise.race([this.exited.then(() => true), delay(ms).then(() => false)]);
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
