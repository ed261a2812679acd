import type { IncomingMessage, ServerResponse } from "node:http";
import type { CloudEvent } from "@lathe/protocol";
import { type ApiContext, serviceReply } from "./apiContext.js";
import { cloudEventsQuery, lastEventId } from "./cloudRequests.js";
import { errorReply, sendReply } from "./httpJson.js";
import { methodNotAllowed, readQuery } from "./requestParsing.js";
import { pathSegments } from "./urlPath.js";

/** A page that cannot keep up is cut off; it reconnects with `Last-Event-ID` and misses nothing. */
const maxBacklogBytes = 16 * 1024 * 1024;

/** A comment line now and then keeps idle proxies and the browser from dropping a quiet stream. */
const keepAliveMs = 15_000;

/** The task id when the path is `/api/cloud/tasks/:id/events`. */
export function cloudEventStreamTask(url: URL): string | undefined {
  const [api, cloud, tasks, taskId, events, ...extra] = pathSegments(url.pathname) ?? [];
  const matches =
    api === "api" && cloud === "cloud" && tasks === "tasks" && events === "events" && extra.length === 0;
  return matches ? taskId : undefined;
}

/**
 * `GET /api/cloud/tasks/:id/events?after=SEQ`: the task's events as Server-Sent Events, each with
 * its seq as the event id — what is stored after `after` first, then live, for as long as the page
 * listens. The browser's EventSource reconnects by itself with `Last-Event-ID`, the last seq it
 * received, so a dropped connection resumes with no gap and no repeat. `event: connection` says
 * when the server lost (and found again) the task database.
 */
export async function streamCloudEvents(
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  taskId: string,
  context: ApiContext,
): Promise<void> {
  const cloud = context.services?.cloud;
  if (cloud === undefined)
    return sendReply(
      response,
      errorReply(501, "E_NOT_SUPPORTED", "This server was started without cloud task services."),
    );
  if (request.method !== "GET") return sendReply(response, methodNotAllowed(request.method));
  const query = await readQuery(url, cloudEventsQuery);
  if (!query.ok) return sendReply(response, query.reply);
  let afterSeq = query.data.after;
  const resumed = request.headers["last-event-id"];
  if (resumed !== undefined) {
    const parsed = lastEventId.safeParse(resumed);
    if (!parsed.success)
      return sendReply(
        response,
        errorReply(400, "E_INVALID_ARGS", "Last-Event-ID must be the seq of the last event received."),
      );
    afterSeq = parsed.data;
  }
  // Checked before the stream starts, so an unknown task is a plain 404 the page can show.
  const found = await cloud.task(taskId);
  if (!found.ok) return sendReply(response, serviceReply(found));

  response.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "x-accel-buffering": "no",
  });
  // The browser waits this long before reconnecting after a drop.
  response.write("retry: 1000\n\n");
  const stop = new AbortController();
  const write = (text: string) => {
    if (stop.signal.aborted) return;
    if (response.writableLength > maxBacklogBytes) {
      stop.abort();
      response.end();
      return;
    }
    response.write(text);
  };
  response.on("close", () => stop.abort());
  const keepAlive = setInterval(() => write(": keep-alive\n\n"), keepAliveMs);
  try {
    const followed = await cloud.follow(
      found.value.task.id,
      afterSeq,
      {
        onEvent: (event: CloudEvent) => write(`id: ${event.seq}\ndata: ${JSON.stringify(event)}\n\n`),
        onConnection: (state) => write(`event: connection\ndata: ${JSON.stringify(state)}\n\n`),
      },
      stop.signal,
    );
    if (!followed.ok) write(`event: failure\ndata: ${JSON.stringify(followed.error)}\n\n`);
  } finally {
    clearInterval(keepAlive);
    if (!response.writableEnded) response.end();
  }
}
