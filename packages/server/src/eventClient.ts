import type { LatheEvent, StreamMessage } from "@lathe/protocol";
import { WebSocket } from "ws";

export interface EventStreamOptions {
  /** The server's origin, `http://127.0.0.1:PORT`. */
  origin: string;
  token: string;
  sessionId: string;
  /** The last seq already seen (-1 or absent: everything the server still holds). */
  since?: number;
  /** The `streamId` of the stream `since` belongs to (from `hello`). */
  streamId?: string;
}

export interface ReceivedMessage {
  message: StreamMessage;
  /** `Date.now()` on arrival: with an event's `at`, its latency from emit to receipt. */
  receivedAt: number;
}

/** A Node client of one session's event socket, for tests, benchmarks and scripts. */
export interface EventStream {
  readonly received: ReceivedMessage[];
  /** The session events received so far, in order. */
  events(): LatheEvent[];
  /** The first message, received or still to come, that matches. */
  waitFor(predicate: (message: StreamMessage) => boolean, timeoutMs?: number): Promise<StreamMessage>;
  /** Settles when the server or the client closes the socket. */
  readonly closed: Promise<{ code: number; reason: string }>;
  close(): Promise<void>;
}

/** Opens `/api/sessions/:id/events` with the token as a bearer header; resolves once connected. */
export async function openEventStream(options: EventStreamOptions): Promise<EventStream> {
  const url = new URL(`/api/sessions/${encodeURIComponent(options.sessionId)}/events`, options.origin);
  url.protocol = "ws:";
  if (options.since !== undefined) url.searchParams.set("since", String(options.since));
  if (options.streamId !== undefined) url.searchParams.set("stream", options.streamId);
  const ws = new WebSocket(url, { headers: { authorization: `Bearer ${options.token}` } });
  const received: ReceivedMessage[] = [];
  const waiters = new Set<(message: StreamMessage) => void>();
  ws.on("message", (data) => {
    const message = JSON.parse(String(data)) as StreamMessage;
    received.push({ message, receivedAt: Date.now() });
    for (const waiter of [...waiters]) waiter(message);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on("close", (code, reason) => resolve({ code, reason: String(reason) })),
  );
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("unexpected-response", (_request, response) =>
      reject(new Error(`event stream refused: HTTP ${response.statusCode}`)),
    );
    ws.once("error", reject);
  });
  return {
    received,
    events: () => received.map((item) => item.message).filter(isEvent),
    waitFor(predicate, timeoutMs = 10_000) {
      const seen = received.find((item) => predicate(item.message));
      if (seen) return Promise.resolve(seen.message);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching event-stream message within ${timeoutMs} ms`));
        }, timeoutMs);
        const check = (message: StreamMessage) => {
          if (!predicate(message)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(message);
        };
        waiters.add(check);
      });
    },
    closed,
    async close() {
      if (ws.readyState !== WebSocket.CLOSED) ws.close();
      await closed;
    },
  };
}

export function isEvent(message: StreamMessage): message is LatheEvent {
  return "seq" in message;
}

/** Milliseconds from each event's emission (`at`) to its arrival at the client. */
export function eventLatencies(received: readonly ReceivedMessage[]): number[] {
  return received.flatMap(({ message, receivedAt }) => (isEvent(message) ? [receivedAt - message.at] : []));
}

/** The nearest-rank percentile (`p` in 0–100) of some samples; NaN for none. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}
