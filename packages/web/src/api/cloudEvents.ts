import type { CloudEvent } from "@lathe/protocol";
import { cloudApi } from "./cloudApi.js";

export type CloudFeedStatus = "connecting" | "live" | "reconnecting" | "database_lost" | "closed";

export interface CloudEventHandlers {
  onEvent(event: CloudEvent): void;
  onStatus(status: CloudFeedStatus): void;
}

export interface CloudEventFeed {
  close(): void;
}

/**
 * One cloud task's events as Server-Sent Events. A dropped connection is resumed by the browser
 * itself, which sends the last event id (the seq) it received; when the server refused the stream
 * outright (a restart, the database away) the browser gives up, so it is opened again here after
 * the newest seq the page holds. Either way nothing is missed, and the page drops any seq it has.
 */
export function connectCloudEvents(
  taskId: string,
  lastSeq: () => number,
  handlers: CloudEventHandlers,
): CloudEventFeed {
  let source: EventSource | undefined;
  let stopped = false;
  let retries = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const reopen = () => {
    source?.close();
    retries += 1;
    handlers.onStatus("reconnecting");
    timer = setTimeout(open, Math.min(10_000, 500 * 2 ** Math.min(retries, 5)));
  };

  const open = () => {
    if (stopped) return;
    const current = new EventSource(cloudApi.eventsUrl(taskId, lastSeq()));
    source = current;
    handlers.onStatus(retries === 0 ? "connecting" : "reconnecting");
    current.onopen = () => {
      retries = 0;
      handlers.onStatus("live");
    };
    current.onmessage = (message) => handlers.onEvent(JSON.parse(String(message.data)) as CloudEvent);
    current.addEventListener("connection", (message) => {
      const state = JSON.parse(String((message as MessageEvent).data)) as "lost" | "back";
      handlers.onStatus(state === "lost" ? "database_lost" : "live");
    });
    // The server could not follow the task (its database went away): it ends the stream.
    current.addEventListener("failure", reopen);
    current.onerror = () => {
      if (stopped || source !== current) return;
      if (current.readyState === EventSource.CLOSED) reopen();
      else handlers.onStatus("reconnecting");
    };
  };

  open();
  return {
    close() {
      stopped = true;
      if (timer) clearTimeout(timer);
      source?.close();
      handlers.onStatus("closed");
    },
  };
}
