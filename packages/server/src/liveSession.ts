import type { AgentSession, ApprovalMode, EditorStateUpdate } from "@lathe/core";
import type { ServerMessage } from "@lathe/protocol";
import { type LatheErrorInfo, type LatheEvent, type Mode, newId } from "@lathe/protocol";
import { EventBuffer } from "./eventBuffer.js";
import type { PendingInput } from "./pendingInput.js";

/** One connected event-stream client; the socket layer adapts a WebSocket to this. */
export interface StreamClient {
  send(data: string): void;
  /** The session was closed: no more events will come. */
  end(): void;
}

export interface LiveSessionParts {
  session: AgentSession;
  close(): Promise<void>;
  projectRoot: string;
  mode: Mode;
  /** The model the session was opened with, to open it again with the same. */
  model?: string;
  pending: PendingInput;
  maxBufferedEvents: number;
}

/** Where a client resumes: after `since` (-1 for everything) in the stream it names, if any. */
export interface ResumePoint {
  since: number;
  streamId?: string;
}

/**
 * A session the server holds open: its event ring, its waiting approvals and questions, and the
 * clients streaming its events. Events reach the ring and every client synchronously as the engine
 * emits them, so a client attached between two events sees exactly the replay and then the rest.
 */
export class LiveSession {
  readonly id: string;
  readonly streamId = newId();
  readonly projectRoot: string;
  private mode: Mode;
  private readonly buffer: EventBuffer;
  private readonly clients = new Set<StreamClient>();
  /** Between `run_start` and `run_complete`: `runState` stays idle for a moment after a run begins. */
  private inRun = false;
  private closed = false;
  private readonly unsubscribe: () => void;

  constructor(private readonly parts: LiveSessionParts) {
    this.id = parts.session.id;
    this.projectRoot = parts.projectRoot;
    this.mode = parts.mode;
    this.buffer = new EventBuffer(parts.maxBufferedEvents);
    this.unsubscribe = parts.session.subscribe((event) => this.onEvent(event));
    parts.pending.onChange = () => this.broadcast(this.pendingMessage());
  }

  private get session(): AgentSession {
    return this.parts.session;
  }

  private onEvent(event: LatheEvent): void {
    if (event.type === "run_start") {
      this.inRun = true;
      this.mode = event.mode;
    } else if (event.type === "run_complete") {
      this.inRun = false;
    }
    this.buffer.push(event);
    this.broadcastText(JSON.stringify(event));
  }

  private broadcast(message: ServerMessage): void {
    this.broadcastText(JSON.stringify(message));
  }

  private broadcastText(text: string): void {
    for (const client of this.clients) client.send(text);
  }

  private pendingMessage(): ServerMessage {
    return { type: "pending_input", ...this.parts.pending.snapshot() };
  }

  /** Sends the hello, any gap notice, the replay and the waiting requests, then adds the client to the live stream. */
  attach(client: StreamClient, resume: ResumePoint): () => void {
    // The socket may finish its handshake just after the session was closed.
    if (this.closed) {
      client.end();
      return () => {};
    }
    const lastSeq = this.buffer.lastSeq;
    const say = (message: ServerMessage) => client.send(JSON.stringify(message));
    say({ type: "hello", sessionId: this.id, streamId: this.streamId, lastSeq });
    const restarted =
      (resume.streamId !== undefined && resume.streamId !== this.streamId) || resume.since > lastSeq;
    const replay = this.buffer.since(restarted ? -1 : resume.since);
    if (restarted) say({ type: "replay_gap", since: resume.since, reason: "restarted" });
    else if (replay.droppedThrough !== undefined) {
      say({
        type: "replay_gap",
        since: resume.since,
        reason: "dropped",
        missingThrough: replay.droppedThrough,
      });
    }
    for (const event of replay.events) client.send(JSON.stringify(event));
    say(this.pendingMessage());
    this.clients.add(client);
    return () => this.clients.delete(client);
  }

  summary() {
    return {
      id: this.id,
      projectRoot: this.projectRoot,
      state: this.session.runState,
      mode: this.mode,
      lastSeq: this.buffer.lastSeq,
    };
  }

  detail() {
    const pending = this.parts.pending.snapshot();
    return {
      ...this.summary(),
      streamId: this.streamId,
      messages: this.session.messages,
      todos: this.session.todos.current(),
      usage: this.session.usage,
      pendingApprovals: pending.approvals,
      pendingQuestions: pending.questions,
    };
  }

  /** What opens this stored session again as it is now: same project, mode and model. */
  reopenRequest(): { projectRoot: string; resume: string; mode: Mode; model?: string } {
    const request = { projectRoot: this.projectRoot, resume: this.id, mode: this.mode };
    return this.parts.model === undefined ? request : { ...request, model: this.parts.model };
  }

  get busy(): boolean {
    return this.inRun || this.session.runState !== "idle";
  }

  /** Starts a run, or queues the message behind the one running; the outcome arrives as events. */
  send(text: string): { queued: boolean } {
    // The engine announces a queued message synchronously, inside `send`.
    let queued = false;
    const stop = this.session.subscribe((event) => {
      if (event.type === "message_queued") queued = true;
    });
    const run = this.session.send(text);
    stop();
    run.catch((error: unknown) =>
      this.broadcast({
        type: "engine_error",
        message: error instanceof Error ? error.message : String(error),
      }),
    );
    return { queued };
  }

  cancel(): { cancelled: boolean } {
    const cancelled = this.busy;
    this.session.cancel();
    return { cancelled };
  }

  setMode(mode: Mode): void {
    this.session.setMode(mode);
    this.mode = mode;
  }

  setApprovalMode(mode: ApprovalMode): void {
    this.session.setApprovalMode(mode);
  }

  updateEditor(update: EditorStateUpdate): { ok: true } | { ok: false; error: LatheErrorInfo } {
    return this.session.updateEditor(update);
  }

  /** False when a run is in flight: the engine compacts only between runs. */
  async compact(focus?: string): Promise<boolean> {
    if (this.busy) return false;
    await this.session.compact(focus);
    return true;
  }

  get pending(): PendingInput {
    return this.parts.pending;
  }

  /** Ends the session and its clients' streams. */
  async close(): Promise<void> {
    this.closed = true;
    try {
      await this.parts.close();
    } finally {
      this.parts.pending.withdrawAll();
      this.unsubscribe();
      for (const client of this.clients) client.end();
      this.clients.clear();
    }
  }
}
