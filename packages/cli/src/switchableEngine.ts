import type { AgentSession, CheckpointRecord, SessionInfo } from "@lathe/core";
import { type Message, messageText } from "@lathe/protocol";
import { restoreCheckpoint } from "./checkpointRestore.js";
import type { EngineSetup } from "./engineSetup.js";
import { openSessionStore } from "./sessionDatabase.js";

type Engine = Extract<EngineSetup, { ok: true }>;

/** Which session to open in place of the current one. */
export interface SessionChange {
  /** A stored session's id (or unique prefix); none opens a new session. */
  resume?: string;
  /** Trust the folder's gated files first, as `--trust` does. */
  trust?: boolean;
  /** The model to go on with; the resumed session's own when absent. */
  model?: string;
}

/** `lost`: neither the session asked for nor the one left could be opened: there is none now. */
export type Switched = { ok: true; session: AgentSession } | { ok: false; message: string; lost?: true };

/** What `/undo` put back: the message taken back, and the files written and removed for it. */
export type Undone =
  | { ok: true; session: AgentSession; message: string; written: number; removed: number }
  | { ok: false; message: string; lost?: true };

/**
 * The engine of the interactive terminal, which the user points at another session without
 * leaving (`/clear`, `/resume`, `/undo`, `/trust`). The engine holds its conversation in memory,
 * so a change ends it and sets up the one asked for, as `lathe -r` would; should that fail, the
 * session it left is opened again.
 */
export class SwitchableEngine {
  constructor(
    private engine: Engine,
    private readonly open: (change: SessionChange) => Promise<EngineSetup>,
    private readonly store: { latheHome: string; env: Record<string, string | undefined> },
  ) {}

  /** Between ending one session and opening the next, and for good once none could be opened. */
  private closed = false;

  get session(): AgentSession {
    return this.engine.session;
  }

  get current(): Engine {
    return this.engine;
  }

  /** The project's stored sessions, most recent first. */
  sessions(limit = 10): SessionInfo[] {
    return this.engine.persistence.store.listSessions({ projectRoot: this.engine.projectRoot, limit });
  }

  /** The checkpoints of the current session, oldest first. */
  checkpoints(): CheckpointRecord[] {
    return this.engine.persistence.store.checkpoints(this.session.id);
  }

  /** A stored session by id or unique prefix, if it is one of this project's. */
  find(ref: string): { ok: true; session: SessionInfo } | { ok: false; message: string } {
    const found = this.engine.persistence.store.findSession(ref);
    if (!found.ok) return { ok: false, message: found.error.message };
    if (found.value.projectRoot !== this.engine.projectRoot)
      return { ok: false, message: `Session ${ref} belongs to ${found.value.projectRoot}: resume it there.` };
    return { ok: true, session: found.value };
  }

  async switchTo(change: SessionChange): Promise<Switched> {
    const left = this.session.id;
    await this.closeCurrent();
    return this.reopen(change, left);
  }

  /**
   * Takes back the last message still in the conversation: the project's files and the
   * conversation go back to the checkpoint taken as it was sent (SPEC §7). The files are kept in
   * a `before_restore` checkpoint and the whole conversation in a fork, so an undo can be undone.
   */
  async undo(): Promise<Undone> {
    const { session } = this;
    const target = lastMessageCheckpoint(this.checkpoints(), session.messages);
    if (!target)
      return { ok: false, message: "Nothing to undo: no message of this session has a checkpoint." };
    const model = session.modelId;
    await this.closeCurrent();
    const restored = await this.restore(target.checkpoint);
    const reopened = await this.reopen({ resume: session.id, model }, session.id);
    if (!reopened.ok) return reopened;
    if (!restored.ok) return { ok: false, message: `Nothing was undone: ${restored.message}` };
    return { ok: true, session: reopened.session, message: target.text, ...restored.value };
  }

  async close(): Promise<void> {
    await this.closeCurrent();
  }

  private async closeCurrent(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.engine.close();
  }

  private async restore(
    checkpoint: CheckpointRecord,
  ): Promise<{ ok: true; value: { written: number; removed: number } } | { ok: false; message: string }> {
    const opened = openSessionStore(this.store.latheHome, this.store.env);
    if (!opened.ok) return { ok: false, message: opened.error.message };
    const store = opened.value;
    try {
      const info = store.findSession(checkpoint.sessionId);
      if (!info.ok) return { ok: false, message: info.error.message };
      const restored = await restoreCheckpoint({
        store,
        latheHome: this.store.latheHome,
        checkpoint,
        session: info.value,
        code: true,
        conversation: true,
      });
      if (!restored.ok) return { ok: false, message: restored.error.message };
      const code = restored.value.code;
      return { ok: true, value: { written: code?.written.length ?? 0, removed: code?.removed.length ?? 0 } };
    } finally {
      store.close();
    }
  }

  private async reopen(change: SessionChange, left: string): Promise<Switched> {
    const opened = await this.open(change);
    if (opened.ok) {
      this.engine = opened;
      this.closed = false;
      return { ok: true, session: opened.session };
    }
    const back = await this.open({ resume: left, model: change.model });
    if (!back.ok) {
      const message = `${opened.error.message}; the session left could not be opened again either.`;
      return { ok: false, message, lost: true };
    }
    this.engine = back;
    this.closed = false;
    return { ok: false, message: opened.error.message };
  }
}

/** The checkpoint taken at the newest user message still in the conversation, and that message's text. */
function lastMessageCheckpoint(
  checkpoints: readonly CheckpointRecord[],
  messages: readonly Message[],
): { checkpoint: CheckpointRecord; text: string } | undefined {
  for (const checkpoint of [...checkpoints].reverse()) {
    if (checkpoint.reason !== "user_message") continue;
    const message = messages.find((one) => one.id === checkpoint.messageId);
    if (message) return { checkpoint, text: messageText(message) };
  }
  return undefined;
}
