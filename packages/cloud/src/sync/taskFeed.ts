import type pg from "pg";
import { isConnectionLoss } from "../database/cloudDatabase.js";
import { eventsAfter, type TaskEvent } from "../tasks/taskEvents.js";
import { isFinished, type TaskStatus } from "../tasks/taskStatus.js";
import { listenToChannels } from "./channelListener.js";
import { taskChannel } from "./eventChannels.js";

export interface FollowOptions {
  pool: pg.Pool;
  url: string;
  taskId: string;
  /** The last sequence this device has: only later events are delivered. */
  afterSeq: number;
  onEvent(event: TaskEvent): void;
  /** Told when the connection dropped and when it is back (the feed catches up by itself). */
  onConnection?(state: "lost" | "back"): void;
  /** Stop at the task's end (a finished status event); otherwise follow until the signal. */
  untilFinished: boolean;
  signal?: AbortSignal;
}

/**
 * A task's events, each exactly once and in order: what is stored after `afterSeq` first, then
 * live. Every announcement, and every reconnection of the listener, triggers a read of what
 * follows the last event delivered, so an event is never skipped (the announcement may be lost
 * while disconnected; the read is not) and never repeated (reads start after the last seq).
 */
export function followTask(options: FollowOptions): Promise<{ lastSeq: number; finished: boolean }> {
  return new Promise((resolve) => {
    let lastSeq = options.afterSeq;
    let reading = false;
    let again = false;
    let done = false;
    let everConnected = false;

    const finish = (finished: boolean) => {
      if (done) return;
      done = true;
      options.signal?.removeEventListener("abort", onAbort);
      void listener.close().then(() => resolve({ lastSeq, finished }));
    };
    const onAbort = () => finish(false);

    const read = async () => {
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      try {
        do {
          again = false;
          let ended = false;
          for (;;) {
            const events = await eventsAfter(options.pool, options.taskId, lastSeq);
            for (const event of events) {
              if (done) return;
              lastSeq = event.seq;
              options.onEvent(event);
              ended = endsTask(event);
            }
            if (events.length === 0) break;
          }
          // The task's end is the last event stored, not any finished status on the way (a
          // failed task retried goes on after it).
          if (ended && options.untilFinished) {
            finish(true);
            return;
          }
        } while (again && !done);
      } catch (error) {
        // A dropped connection (or any failed read) is read again shortly: lastSeq has not moved.
        if (!done) setTimeout(() => void read(), isConnectionLoss(error) ? 250 : 1_000);
      } finally {
        reading = false;
      }
    };

    const listener = listenToChannels({
      url: options.url,
      channels: [taskChannel(options.taskId)],
      onAnnouncement: () => void read(),
      onConnected: () => {
        if (everConnected) options.onConnection?.("back");
        everConnected = true;
        void read();
      },
      onDisconnected: () => options.onConnection?.("lost"),
    });
    options.signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function endsTask(event: TaskEvent): boolean {
  if (event.kind !== "status") return false;
  const status = (event.data as { status?: TaskStatus } | null)?.status;
  return status !== undefined && isFinished(status);
}
