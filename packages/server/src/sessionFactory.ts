import type { AgentSession, AgentSessionOptions } from "@lathe/core";
import type { LatheErrorInfo, Mode } from "@lathe/protocol";

export interface SessionRequest {
  /** Absolute path of the project the session works in. */
  projectRoot: string;
  /** A stored session to continue. */
  resume?: string;
  mode?: Mode;
  /** `provider:model`. */
  model?: string;
  /** The server's own handlers: they wait for answers from the web clients. */
  requestApproval: NonNullable<AgentSessionOptions["requestApproval"]>;
  askUser: NonNullable<AgentSessionOptions["askUser"]>;
}

export type SessionCreated =
  | {
      ok: true;
      session: AgentSession;
      /** Ends the session (disposes it) and releases what was opened for it (storage, tools). */
      close(): Promise<void>;
      /** The mode the session starts in, when the factory chose it (from settings); else `request.mode` or `agent`. */
      mode?: Mode;
    }
  | { ok: false; error: LatheErrorInfo };

/** Makes sessions for the server: the face decides nothing about models, storage or policy. */
export interface SessionFactory {
  create(request: SessionRequest): Promise<SessionCreated>;
}
