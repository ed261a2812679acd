import type { LatheEvent, ServerMessage, StreamMessage } from "@lathe/protocol";

const serverMessageTypes = new Set(["hello", "replay_gap", "pending_input", "engine_error"]);

export function isServerMessage(message: StreamMessage): message is ServerMessage {
  return serverMessageTypes.has(message.type);
}

export interface EventSocketHandlers {
  onMessage(message: ServerMessage | LatheEvent): void;
  onStatus(status: "connecting" | "live" | "reconnecting" | "closed"): void;
}

export interface EventSocket {
  close(): void;
}

/**
 * One session's event stream, reconnecting with growing pauses and resuming after the newest seq
 * seen in the stream it names, so a dropped connection loses nothing the server still holds.
 * The cookie set when the page was opened authenticates the upgrade.
 */
export function connectEvents(
  sessionId: string,
  resumeFrom: () => { since: number; streamId?: string },
  handlers: EventSocketHandlers,
): EventSocket {
  let socket: WebSocket | undefined;
  let stopped = false;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const open = () => {
    const { since, streamId } = resumeFrom();
    const url = new URL(`/api/sessions/${encodeURIComponent(sessionId)}/events`, window.location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    url.search = "";
    url.searchParams.set("since", String(since));
    if (streamId) url.searchParams.set("stream", streamId);
    handlers.onStatus(attempt === 0 ? "connecting" : "reconnecting");
    const current = new WebSocket(url);
    socket = current;
    current.onopen = () => {
      attempt = 0;
      handlers.onStatus("live");
    };
    current.onmessage = (message) => {
      handlers.onMessage(JSON.parse(String(message.data)) as ServerMessage | LatheEvent);
    };
    current.onclose = () => {
      if (stopped || socket !== current) return;
      attempt += 1;
      handlers.onStatus("reconnecting");
      timer = setTimeout(open, Math.min(5000, 200 * 2 ** Math.min(attempt, 5)));
    };
  };
  open();
  return {
    close() {
      stopped = true;
      if (timer) clearTimeout(timer);
      socket?.close();
      handlers.onStatus("closed");
    },
  };
}
