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

/** The sessions the server holds open, across any number of projects. */
export class SessionHub {
  private readonly sessions = new Map<string, LiveSession>();
  private closing = false;

  constructor(
    private readonly factory: SessionFactory,
    private readonly maxBufferedEvents: number,
  ) {}

  async open(request: OpenRequest): Promise<Opened> {
    if (this.closing) return { ok: false, reason: "closing", message: "The server is shutting down." };
    // Two engines on one stored session would interleave their writes.
    if (request.resume !== undefined && this.sessions.has(request.resume)) return alreadyOpen(request.resume);
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
      pending,
      maxBufferedEvents: this.maxBufferedEvents,
    });
    this.sessions.set(live.id, live);
    return { ok: true, session: live };
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
