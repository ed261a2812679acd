import pg from "pg";
import { type EventAnnouncement, parseAnnouncement } from "./eventChannels.js";

export interface ChannelListener {
  close(): Promise<void>;
}

export interface ChannelListenerOptions {
  url: string;
  channels: readonly string[];
  onAnnouncement(announcement: EventAnnouncement): void;
  /**
   * Called after every connection, the first and each one after a drop: what was announced while
   * no connection listened is lost, so the caller catches up from its last sequence here.
   */
  onConnected(): void;
  /** Called once when the connection drops (or the first cannot be made), until one is made again. */
  onDisconnected?(error: Error | undefined): void;
}

const firstRetryMs = 100;
const lastRetryMs = 2_000;

/**
 * A LISTEN connection that comes back: when the server goes away (a restart, a network drop) it
 * reconnects with a growing pause and says so, so the caller re-reads what it may have missed.
 * LISTEN needs a session of its own: it does not pass through PgBouncer in transaction mode.
 */
export function listenToChannels(options: ChannelListenerOptions): ChannelListener {
  let closed = false;
  let client: pg.Client | undefined;
  let retryMs = firstRetryMs;
  let timer: NodeJS.Timeout | undefined;
  // Said once per outage, not at every failed attempt to reconnect: a watcher prints each one.
  let down = false;

  const connect = async () => {
    if (closed) return;
    const next = new pg.Client({ connectionString: options.url, application_name: "lathe-listen" });
    let dropped = false;
    const drop = (error?: Error) => {
      if (dropped) return;
      dropped = true;
      next.removeAllListeners("notification");
      next.end().catch(() => undefined);
      if (client === next) client = undefined;
      if (closed) return;
      if (!down) options.onDisconnected?.(error);
      down = true;
      timer = setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, lastRetryMs);
    };
    next.on("error", drop);
    next.on("end", () => drop());
    next.on("notification", (message) => {
      const announcement = parseAnnouncement(message.payload);
      if (announcement !== undefined) options.onAnnouncement(announcement);
    });
    try {
      await next.connect();
      for (const channel of options.channels) await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      drop(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if (closed) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    retryMs = firstRetryMs;
    down = false;
    options.onConnected();
  };
  void connect();

  return {
    async close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      const open = client;
      client = undefined;
      if (open !== undefined) await open.end().catch(() => undefined);
    },
  };
}
