import type { Mode } from "@lathe/protocol";
import { create } from "zustand";
import { connectEvents, type EventSocket } from "../api/eventSocket.js";
import { api } from "../api/httpApi.js";
import { createSessionFeed, type SessionFeed } from "./sessionFeed.js";
import type { SessionView } from "./sessionView.js";

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

/** The open session's chat: its event socket feeding a `SessionFeed`, whose views the page renders. */
export const useSessionStore = create<SessionStore>((set, get) => {
  let socket: EventSocket | undefined;
  let feed: SessionFeed | undefined;
  const stop = () => {
    feed?.close();
    feed = undefined;
    socket?.close();
    socket = undefined;
  };

  return {
    connection: "idle",
    async open(sessionId) {
      // The same session opened again (after a restore, a reconnect): its view stays on screen
      // until the new one is in, so the transcript, mode and steps never flash to a blank state.
      const reopened = get().view?.sessionId === sessionId;
      if (reopened) stop();
      else get().close();
      const current = createSessionFeed({
        sessionId,
        quietUntilLoaded: reopened,
        load: async () => {
          const [detail, checkpoints] = await Promise.all([
            api.sessionDetail(sessionId),
            // Without checkpoints (turned off, or none yet) the chat simply offers no restore.
            api.checkpoints(sessionId).catch(() => []),
          ]);
          return { detail, checkpoints };
        },
        show: (view) => set({ view }),
        report: (failure) => set({ failure }),
        nextFrame: (apply) => {
          const frame = requestAnimationFrame(apply);
          return () => cancelAnimationFrame(frame);
        },
      });
      feed = current;
      set({ connection: "connecting", failure: undefined });
      socket = connectEvents(sessionId, () => current.resumeFrom(), {
        onStatus: (connection) => {
          if (feed === current) set({ connection });
        },
        onMessage: (message) => current.receive(message),
      });
    },
    close() {
      stop();
      set({ view: undefined, connection: "idle" });
    },
    setMode(mode) {
      feed?.patch((view) => ({ ...view, status: { ...view.status, mode } }));
    },
  };
});
