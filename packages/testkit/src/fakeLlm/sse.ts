import type { ServerResponse } from "node:http";

/**
 * One piece of a streamed response. `content` pieces carry model output (text, reasoning, tool
 * arguments) and are what `drop_after_chunks` counts; `frame` pieces are structure around them
 * (message start, block boundaries); `finish` pieces end the response and are never sent when
 * the turn drops the connection.
 */
export interface StreamPiece {
  role: "frame" | "content" | "finish";
  payload: string;
}

/** An unnamed server-sent event, as OpenAI and Gemini send them. */
export function sseData(value: unknown): string {
  return `data: ${JSON.stringify(value)}\n\n`;
}

export interface NamedEvent {
  type: string;
  [field: string]: unknown;
}

/** A named server-sent event whose name repeats the payload's `type`, as Anthropic sends them. */
export function sseEvent(value: NamedEvent): string {
  return `event: ${value.type}\ndata: ${JSON.stringify(value)}\n\n`;
}

export interface StreamPlan {
  contentType: string;
  pieces: StreamPiece[];
  chunkDelayMs: number;
  dropAfterChunks: number | undefined;
  /**
   * When set, content pieces leave on a clock instead of after `chunkDelayMs` pauses: the n-th
   * at n × this many milliseconds after the first, several at once when a timer fires late.
   */
  contentIntervalMs?: number;
}

/** Resolves after `ms`, or at once when the client has gone away. */
export function waitUnlessClosed(res: ServerResponse, ms: number): Promise<void> {
  if (ms <= 0 || res.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      res.off("close", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    res.on("close", done);
  });
}

/** Resolves once the payload has been handed to the socket, so a later drop cannot discard it. */
function write(res: ServerResponse, payload: string): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("close", done);
      resolve();
    };
    res.on("close", done);
    res.write(payload, done);
  });
}

/**
 * Sends the pieces with the scripted pause between them. Stops quietly when the client goes
 * away; with `dropAfterChunks`, destroys the socket after that many content pieces (or before
 * the first finishing piece), so the client sees a connection cut mid-stream.
 */
export async function sendStream(res: ServerResponse, plan: StreamPlan): Promise<void> {
  res.writeHead(200, { "content-type": plan.contentType, "cache-control": "no-cache" });
  res.flushHeaders();
  let contentSent = 0;
  let first = true;
  let pacingFrom: number | undefined;
  for (const piece of plan.pieces) {
    if (res.destroyed) return;
    if (plan.dropAfterChunks !== undefined) {
      const limitReached = contentSent >= plan.dropAfterChunks;
      if (piece.role === "finish" || (piece.role === "content" && limitReached)) {
        res.socket?.destroy();
        return;
      }
    }
    if (plan.contentIntervalMs !== undefined) {
      if (piece.role === "content") {
        pacingFrom ??= performance.now();
        await waitUnlessClosed(res, pacingFrom + contentSent * plan.contentIntervalMs - performance.now());
      }
    } else if (!first && piece.role !== "frame") await waitUnlessClosed(res, plan.chunkDelayMs);
    if (res.destroyed) return;
    await write(res, piece.payload);
    first = false;
    if (piece.role === "content") contentSent++;
  }
  res.end();
}
