import type { LatheEvent, Message, Mode, ServerMessage } from "@lathe/protocol";
import { create } from "zustand";
import { connectEvents, type EventSocket } from "../api/eventSocket.js";
import { api } from "../api/httpApi.js";
import {
  applyEvents,
  emptyView,
  type SessionView,
  viewFromHistory,
  withPendingInput,
} from "./sessionView.js";

export type Connection = "idle" | "connecting" | "live" | "reconnecting" | "closed";

interface SessionStore {
  view?: SessionView;
  connection: Connection;
  /** The last failure to load or to talk to the server, shown in the status bar. */
  failure?: string;
  open(sessionId: string): Promise<void>;
  close(): void;
  /** The mode changed from this page: shown at once, confirmed by the next run's `run_start`. */
  setMode(mode: Mode): void;
}

/**
 * The open session's chat, fed by its event socket. The socket's replay comes first: until the
 * `pending_input` that ends it, events are held; then the stored history from before this stream
 * is loaded and the events applied on top. Live events are applied once per animation frame, so a
 * fast stream costs one render per frame however many deltas arrive.
 */
export const useSessionStore = create<SessionStore>((set, get) => {
  let socket: EventSocket | undefined;
  let pending: LatheEvent[] = [];
  let frame: number | undefined;
  let replaying = true;
  let opened = 0;

  const flush = () => {
    frame = undefined;
    const view = get().view;
    if (!view || pending.length === 0) return;
    const batch = pending;
    pending = [];
    set({ view: applyEvents(view, batch) });
  };

  const schedule = () => {
    if (frame !== undefined) return;
    frame = requestAnimationFrame(flush);
  };

  /** Rebuilds the view from the stored messages older than the stream's first event, then the events. */
  const rebuild = async (sessionId: string, events: LatheEvent[], generation: number) => {
    try {
      const [detail, checkpoints] = await Promise.all([
        api.sessionDetail(sessionId),
        // Without checkpoints (turned off, or none yet) the chat simply offers no restore.
        api.checkpoints(sessionId).catch(() => []),
      ]);
      if (generation !== opened) return;
      const firstAt = events[0]?.at ?? Number.POSITIVE_INFINITY;
      const history: Message[] = detail.messages.filter((message) => message.createdAt < firstAt);
      const atMessages = new Map(
        checkpoints.flatMap((checkpoint) =>
          checkpoint.reason === "user_message" && checkpoint.messageId
            ? [[checkpoint.messageId, checkpoint.id] as const]
            : [],
        ),
      );
      const base = {
        ...viewFromHistory(sessionId, history, detail.mode, atMessages),
        streamId: detail.streamId,
      };
      base.todos = detail.todos;
      base.status = { ...base.status, usage: detail.usage };
      const view = applyEvents(base, [...events, ...pending]);
      pending = [];
      set({
        view: withPendingInput(view, detail.pendingApprovals, detail.pendingQuestions),
        failure: undefined,
      });
    } catch (error) {
      if (generation === opened) set({ failure: error instanceof Error ? error.message : String(error) });
    }
  };

  const onServerMessage = (sessionId: string, message: ServerMessage, generation: number) => {
    if (message.type === "hello") {
      const view = get().view;
      // A stream this page has not seen yet (first connection, or the session was reopened).
      if (view?.streamId !== message.streamId) replaying = true;
      set({ view: { ...(view ?? emptyView(sessionId)), streamId: message.streamId } });
      return;
    }
    if (message.type === "replay_gap") {
      // Whatever we showed belongs to another stream or has holes: start over from the replay.
      replaying = true;
      pending = [];
      set({ view: { ...emptyView(sessionId), streamId: get().view?.streamId } });
      return;
    }
    if (message.type === "pending_input") {
      if (replaying) {
        replaying = false;
        const replayed = pending;
        pending = [];
        void rebuild(sessionId, replayed, generation);
        return;
      }
      flush();
      const view = get().view;
      if (view) set({ view: withPendingInput(view, message.approvals, message.questions) });
      return;
    }
    set({ failure: `The engine failed: ${message.message}` });
  };

  return {
    connection: "idle",
    async open(sessionId) {
      get().close();
      const generation = ++opened;
      replaying = true;
      pending = [];
      set({ view: emptyView(sessionId), connection: "connecting", failure: undefined });
      socket = connectEvents(
        sessionId,
        () => {
          const view = get().view;
          // Mid-replay there is nothing consistent to resume from: take the whole buffer again.
          if (replaying || !view) return { since: -1 };
          return { since: view.lastSeq, ...(view.streamId ? { streamId: view.streamId } : {}) };
        },
        {
          onStatus: (connection) => {
            if (generation === opened) set({ connection });
          },
          onMessage: (message) => {
            if (generation !== opened) return;
            if ("seq" in message) {
              pending.push(message);
              if (!replaying) schedule();
              return;
            }
            onServerMessage(sessionId, message, generation);
          },
        },
      );
    },
    close() {
      opened += 1;
      socket?.close();
      socket = undefined;
      if (frame !== undefined) cancelAnimationFrame(frame);
      frame = undefined;
      pending = [];
      set({ view: undefined, connection: "idle" });
    },
    setMode(mode) {
      const view = get().view;
      if (view) set({ view: { ...view, status: { ...view.status, mode } } });
    },
  };
});
