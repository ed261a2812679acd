import type { LatheErrorInfo, Mode } from "@lathe/protocol";
import { LiveSession } from "./liveSession.js";
import { PendingInput } from "./pendingInput.js";
import type { SessionFactory } from "./sessionFactory.js";

export interface OpenRequest {
  projectRoot: string;
  resume?: string;
  mode?: Mode;
  model?: string;
}

export type Opened =
  | { ok: true; session: LiveSession }
  | { ok: false; reason: "factory"; error: LatheErrorInfo }
  | { ok: false; reason: "already_open" | "closing"; message: string };

export type Reopened<T> =
  /** `reopened` is absent when the session was not open here, so nothing was closed or opened. */
  | { ok: true; value: T; reopened?: LiveSession }
  | { ok: false; reason: "busy" | "in_use"; message: string }
  /** The change was made but the session could not be opened again. */
  | { ok: false; reason: "reopen_failed"; value: T; message: string };

/** The sessions the server holds open, across any number of projects. */
export class SessionHub {
  private readonly sessions = new Map<string, LiveSession>();
  /** Stored sessions being opened or changed right now: a second engine on one would interleave writes. */
  private readonly claimed = new Set<string>();
  private closing = false;

  constructor(
    private readonly factory: SessionFactory,
    private readonly maxBufferedEvents: number,
  ) {}

  async open(request: OpenRequest): Promise<Opened> {
    if (this.closing) return { ok: false, reason: "closing", message: "The server is shutting down." };
    const resume = request.resume;
    if (resume === undefined) return this.start(request);
    if (this.sessions.has(resume) || this.claimed.has(resume)) return alreadyOpen(resume);
    this.claimed.add(resume);
    try {
      return await this.start(request);
    } finally {
      this.claimed.delete(resume);
    }
  }

  private async start(request: OpenRequest): Promise<Opened> {
    const pending = new PendingInput();
    const created = await this.factory.create({
      ...request,
      requestApproval: pending.requestApproval,
      askUser: pending.askUser,
    });
    if (!created.ok) return { ok: false, reason: "factory", error: created.error };
    const { session } = created;
    if (this.closing || this.sessions.has(session.id)) {
      await created.close();
      return this.closing
        ? { ok: false, reason: "closing", message: "The server is shutting down." }
        : alreadyOpen(session.id);
    }
    const live = new LiveSession({
      session,
      close: created.close,
      projectRoot: request.projectRoot,
      mode: created.mode ?? request.mode ?? "agent",
      model: request.model,
      pending,
      maxBufferedEvents: this.maxBufferedEvents,
    });
    this.sessions.set(live.id, live);
    return { ok: true, session: live };
  }

  /**
   * Runs `change` on a stored session while no engine holds it: an open session must be idle; it is
   * closed first and opened again afterwards (same project, mode and model) from what is stored
   * then, whatever `change` returned. A session not open here is only claimed meanwhile.
   */
  async whileClosed<T>(id: string, change: () => Promise<T>): Promise<Reopened<T>> {
    if (this.claimed.has(id))
      return { ok: false, reason: "in_use", message: `Session ${id} is being opened.` };
    const live = this.sessions.get(id);
    if (live?.busy) {
      return { ok: false, reason: "busy", message: "A run is in progress; try again when it has finished." };
    }
    // Claimed and removed in the same turn as the checks: no message can reach the old engine now.
    this.claimed.add(id);
    this.sessions.delete(id);
    try {
      if (!live) return { ok: true, value: await change() };
      await live.close();
      const value = await change();
      const opened = this.closing
        ? ({ ok: false, reason: "closing", message: "The server is shutting down." } as const)
        : await this.start(live.reopenRequest());
      if (opened.ok) return { ok: true, value, reopened: opened.session };
      const message = opened.reason === "factory" ? opened.error.message : opened.message;
      return { ok: false, reason: "reopen_failed", value, message };
    } finally {
      this.claimed.delete(id);
    }
  }

  get(id: string): LiveSession | undefined {
    return this.sessions.get(id);
  }

  list(): LiveSession[] {
    return [...this.sessions.values()];
  }

  /** False when no such session is open. */
  async close(id: string): Promise<boolean> {
    const live = this.sessions.get(id);
    if (!live) return false;
    this.sessions.delete(id);
    await live.close();
    return true;
  }

  /** Closes every session, all at once; sessions opened meanwhile are closed as they arrive. */
  async closeAll(): Promise<void> {
    this.closing = true;
    const open = this.list();
    this.sessions.clear();
    await Promise.allSettled(open.map((live) => live.close()));
  }
}

function alreadyOpen(id: string): Opened {
  return { ok: false, reason: "already_open", message: `Session ${id} is already open on this server.` };
}
