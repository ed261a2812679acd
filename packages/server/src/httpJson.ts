import type { IncomingMessage, ServerResponse } from "node:http";

/** A JSON answer: the routes build these, one place writes them. */
export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export function reply(status: number, body: unknown): Reply {
  return { status, body };
}

/** Every API error has this shape: `{ error: { code: "E_…", message } }`. */
export function errorReply(status: number, code: string, message: string): Reply {
  return { status, body: { error: { code, message } } };
}

export function sendReply(response: ServerResponse, answer: Reply): void {
  const text = JSON.stringify(answer.body);
  response.writeHead(answer.status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    ...answer.headers,
  });
  response.end(text);
}

/** Request bodies are small commands; anything larger is refused before it is buffered. */
export const maxBodyBytes = 1024 * 1024;

export type BodyRead = { ok: true; value: unknown } | { ok: false; reply: Reply };

/** Reads a JSON body (an empty one reads as `{}`), refusing more than `maxBodyBytes`. */
export async function readJsonBody(request: IncomingMessage): Promise<BodyRead> {
  const declared = Number(request.headers["content-length"] ?? 0);
  if (declared > maxBodyBytes) return { ok: false, reply: tooLarge() };
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxBodyBytes) return { ok: false, reply: tooLarge() };
    chunks.push(buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, reply: errorReply(400, "E_INVALID_ARGS", "The request body is not valid JSON.") };
  }
}

function tooLarge(): Reply {
  const answer = errorReply(413, "E_BODY_TOO_LARGE", `Request bodies are limited to ${maxBodyBytes} bytes.`);
  // The rest of the body is never read, so the connection cannot carry another request.
  return { ...answer, headers: { connection: "close" } };
}
