import type {
  CheckpointSummary,
  LatheEvent,
  LiveSessionDetail,
  Message,
  ServerMessage,
} from "@lathe/protocol";
import { isServerMessage } from "../api/eventSocket.js";
import {
  applyEvents,
  emptyView,
  type SessionView,
  viewFromHistory,
  withPendingInput,
} from "./sessionView.js";

/** What the server stored for a session: the part of the chat older than the event stream. */
export interface StoredSession {
  detail: LiveSessionDetail;
  checkpoints: CheckpointSummary[];
}

export interface SessionFeedOptions {
  sessionId: string;
  /** Fetches the stored session; a rejection is shown as the failure. */
  load(): Promise<StoredSession>;
  show(view: SessionView): void;
  /** The failure to show in the status bar; `undefined` once the stored session loaded. */
  report(failure: string | undefined): void;
  /** Runs `apply` before the next paint (`requestAnimationFrame` in the page); returns a cancel. */
  nextFrame(apply: () => void): () => void;
  /**
   * Shows nothing until the stored history is in: for a session opened again over its own view
   * (after a restore), which stays on screen meanwhile instead of an empty chat.
   */
  quietUntilLoaded?: boolean;
}

export interface SessionFeed {
  /** One message from the session's event socket, in the order it arrived. */
  receive(message: ServerMessage | LatheEvent): void;
  /** Where a new connection should resume: after the newest event shown, or the whole buffer. */
  resumeFrom(): { since: number; streamId?: string };
  /** Changes the shown view outside the stream (a mode picked on this page). */
  patch(change: (view: SessionView) => SessionView): void;
  close(): void;
}

/**
 * Where a feed is: taking the socket's replay (held until the `pending_input` that ends it),
 * loading the stored history (events still held), or live (events applied once per frame).
 * Events are held until the history is in, because applying them to a view that is about to be
 * replaced would lose them.
 */
type Phase = "replaying" | "loading" | "live";

/**
 * One open session's chat, built from its event socket. The replay and whatever arrives while the
 * stored history loads are applied on top of that history; live events after that are applied in
 * batches, so a fast stream costs one render per frame however many deltas arrive.
 */
export function createSessionFeed(options: SessionFeedOptions): SessionFeed {
  const { sessionId } = options;
  let view = emptyView(sessionId);
  let phase: Phase = "replaying";
  let held: LatheEvent[] = [];
  /** The newest `pending_input` that came while loading: newer than what the load read. */
  let heldInput: Extract<ServerMessage, { type: "pending_input" }> | undefined;
  let loads = 0;
  let closed = false;
  let cancelFrame: (() => void) | undefined;

  let quiet = options.quietUntilLoaded === true;
  const show = (next: SessionView) => {
    view = next;
    if (quiet && phase !== "live") return;
    quiet = false;
    if (!closed) options.show(view);
  };

  const flush = () => {
    cancelFrame = undefined;
    if (phase !== "live" || held.length === 0) return;
    const batch = held;
    held = [];
    show(applyEvents(view, batch));
  };

  const schedule = () => {
    if (cancelFrame || closed) return;
    cancelFrame = options.nextFrame(flush);
  };

  const restart = (streamId: string | undefined) => {
    cancelFrame?.();
    cancelFrame = undefined;
    phase = "replaying";
    held = [];
    heldInput = undefined;
    show({ ...emptyView(sessionId), streamId });
  };

  /** Builds the view from the stored messages older than the first held event, then the events. */
  const load = async () => {
    const current = ++loads;
    phase = "loading";
    heldInput = undefined;
    // A later load, a restart of the stream or a close makes this one's answer worthless.
    const superseded = () => current !== loads || closed || phase !== "loading";
    let stored: StoredSession;
    try {
      stored = await options.load();
    } catch (error) {
      if (superseded()) return;
      // Nothing stored to show: the stream alone is still the best view there is.
      phase = "live";
      options.report(error instanceof Error ? error.message : String(error));
      schedule();
      return;
    }
    if (superseded()) return;
    const { detail, checkpoints } = stored;
    const events = held;
    held = [];
    const firstAt = events[0]?.at ?? Number.POSITIVE_INFINITY;
    const history: Message[] = detail.messages.filter((message) => message.createdAt < firstAt);
    const atMessages = new Map(
      checkpoints.flatMap((checkpoint) =>
        checkpoint.reason === "user_message" && checkpoint.messageId
          ? [[checkpoint.messageId, checkpoint.id] as const]
          : [],
      ),
    );
    const base: SessionView = {
      ...viewFromHistory(sessionId, history, detail.mode, atMessages),
      streamId: detail.streamId,
    };
    base.todos = detail.todos;
    base.status = { ...base.status, usage: detail.usage };
    const input = heldInput ?? {
      approvals: detail.pendingApprovals,
      questions: detail.pendingQuestions,
    };
    heldInput = undefined;
    phase = "live";
    options.report(undefined);
    show(withPendingInput(applyEvents(base, events), input.approvals, input.questions));
  };

  const receiveServerMessage = (message: ServerMessage) => {
    switch (message.type) {
      case "hello":
        // A stream this page has not seen yet (first connection, or the session was reopened), or
        // a connection made before the history was in, which replays the whole buffer again.
        if (phase !== "live" || view.streamId !== message.streamId) restart(message.streamId);
        return;
      case "replay_gap":
        // What we showed belongs to another stream or has holes: start over from the replay.
        restart(view.streamId);
        return;
      case "pending_input":
        if (phase === "replaying") {
          void load();
          return;
        }
        if (phase === "loading") {
          heldInput = message;
          return;
        }
        flush();
        show(withPendingInput(view, message.approvals, message.questions));
        return;
      case "engine_error":
        options.report(`The engine failed: ${message.message}`);
        return;
    }
  };

  show(view);
  return {
    receive(message) {
      if (closed) return;
      if (isServerMessage(message)) {
        receiveServerMessage(message);
        return;
      }
      held.push(message);
      if (phase === "live") schedule();
    },
    resumeFrom() {
      // Before the history is in, nothing shown is consistent to resume from: take the whole buffer.
      if (phase !== "live") return { since: -1 };
      return { since: view.lastSeq, streamId: view.streamId };
    },
    patch(change) {
      show(change(view));
    },
    close() {
      closed = true;
      cancelFrame?.();
      cancelFrame = undefined;
      held = [];
    },
  };
}
