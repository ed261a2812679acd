import { appendFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import { anthropicWire } from "./anthropicWire.js";
import { embeddingsResponse } from "./embeddings.js";
import { geminiJsonArrayWire, geminiSseWire } from "./geminiWire.js";
import { openaiWire } from "./openaiWire.js";
import { buildReply, type ScriptedReply } from "./reply.js";
import { type FakeScript, loadFakeScript, type ScriptedError } from "./script.js";
import { type StreamPiece, sendStream, waitUnlessClosed } from "./sse.js";
import { defaultErrorMessage, type WireFormat } from "./wireFormat.js";

export interface RecordedRequest {
  method: string;
  /** The request target as sent, query string included. */
  path: string;
  /** Lower-cased header names, as node:http gives them. */
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, or the raw text when it was not JSON. */
  body: unknown;
  /** The body's size as sent, in bytes: the weight of a request. */
  bytes: number;
  /** `performance.now()` when the whole body had arrived, for harness-overhead measurements. */
  receivedAt: number;
  /** `performance.now()` when the answer's last byte was handed to the socket. */
  respondedAt?: number;
}

export interface FakeLlmOptions {
  /** The script itself, or the path of a JSON file holding it. */
  script: FakeScript | string;
  /** 0 or absent: any free port. */
  port?: number;
  /** Every request body is appended to this file as one JSON line. */
  recordFile?: string;
}

export interface FakeLlm {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  /** Every request received, in arrival order; the array fills as requests come in. */
  requests: RecordedRequest[];
  /** How many turns have been consumed so far. */
  turnsServed(): number;
  close(): Promise<void>;
}

interface Endpoint {
  wire: WireFormat;
  streams(body: Record<string, unknown>): boolean;
  model(body: Record<string, unknown>): string;
}

function modelField(body: Record<string, unknown>): string {
  return typeof body.model === "string" ? body.model : "fake-model";
}

const openaiEndpoint: Endpoint = {
  wire: openaiWire,
  streams: (body) => body.stream === true,
  model: modelField,
};
const anthropicEndpoint: Endpoint = {
  wire: anthropicWire,
  streams: (body) => body.stream === true,
  model: modelField,
};

const geminiPath = /^\/v1(?:beta|alpha)?\/(.+):(streamGenerateContent|generateContent)$/;

function endpointFor(method: string | undefined, url: URL): Endpoint | undefined {
  if (method !== "POST") return undefined;
  const path = url.pathname;
  if (path === "/v1/chat/completions" || path === "/chat/completions") return openaiEndpoint;
  if (path === "/v1/messages" || path === "/messages") return anthropicEndpoint;
  const gemini = geminiPath.exec(path);
  if (gemini === null) return undefined;
  const modelPath = decodeURIComponent(gemini[1] ?? "");
  const model = modelPath.startsWith("models/") ? modelPath.slice("models/".length) : modelPath;
  const streaming = gemini[2] === "streamGenerateContent";
  return {
    wire: streaming && url.searchParams.get("alt") !== "sse" ? geminiJsonArrayWire : geminiSseWire,
    streams: () => streaming,
    model: () => model,
  };
}

/** The body's text, and the moment its last byte arrived: parsing it is the server's time, not the client's. */
function readBody(req: IncomingMessage): Promise<{ text: string; at: number }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve({ text: Buffer.concat(chunks).toString("utf8"), at: performance.now() }));
    req.on("error", reject);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function sendScriptedError(res: ServerResponse, wire: WireFormat, error: ScriptedError): void {
  const headers: Record<string, string> = {};
  if (error.retry_after_s !== undefined) headers["retry-after"] = String(error.retry_after_s);
  if (error.body === undefined) {
    sendJson(
      res,
      error.status,
      wire.errorBody(error.status, error.message ?? defaultErrorMessage(error.status)),
      headers,
    );
    return;
  }
  const text = typeof error.body === "string" ? error.body : JSON.stringify(error.body);
  const isJson = typeof error.body !== "string" || parseJson(error.body) !== error.body;
  res.writeHead(error.status, {
    "content-type": isJson ? "application/json" : "text/plain; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** The pause between content pieces that streams the reply's output at `tokensPerSecond`. */
function contentInterval(reply: ScriptedReply, pieces: StreamPiece[], tokensPerSecond: number): number {
  const contentPieces = pieces.filter((piece) => piece.role === "content").length;
  const characters =
    reply.reasoning.length +
    reply.text.length +
    reply.toolCalls.reduce((sum, call) => sum + call.argumentsText.length, 0);
  if (contentPieces === 0) return 0;
  return ((characters / 4 / tokensPerSecond) * 1000) / contentPieces;
}

/** Serves the scripted turns, one per model request, until closed. */
export async function startFakeLlm(options: FakeLlmOptions): Promise<FakeLlm> {
  const turns = await loadFakeScript(options.script);
  const requests: RecordedRequest[] = [];
  let turnsServed = 0;
  const served = new Set<number>();

  async function answer(
    res: ServerResponse,
    endpoint: Endpoint,
    body: Record<string, unknown>,
    requestBytes: number,
  ): Promise<void> {
    const { wire } = endpoint;
    const text = JSON.stringify(body);
    const index = turns.findIndex(
      (candidate, at) => !served.has(at) && (candidate.when === undefined || text.includes(candidate.when)),
    );
    const turn = turns[index];
    if (turn === undefined) {
      // 400, not 5xx: clients retry server errors, and an exhausted script will not get better.
      sendJson(
        res,
        400,
        wire.errorBody(
          400,
          served.size === turns.length
            ? `fake-llm: script exhausted after ${turns.length} turns`
            : `fake-llm: no turn left for this request (${turns.length - served.size} left, each for another request)`,
        ),
      );
      return;
    }
    served.add(index);
    turnsServed++;
    const turnNumber = turnsServed;
    if (turn.hang_ms !== undefined) {
      await waitUnlessClosed(res, turn.hang_ms);
      if (res.destroyed) return;
    }
    if (turn.error !== undefined) {
      sendScriptedError(res, wire, turn.error);
      return;
    }
    const reply = buildReply(turn, turnNumber, endpoint.model(body), requestBytes);
    if (endpoint.streams(body)) {
      const pieces = wire.streamPieces(reply);
      await sendStream(res, {
        contentType: wire.streamContentType,
        pieces,
        chunkDelayMs: turn.chunk_delay_ms ?? 0,
        dropAfterChunks: turn.drop_after_chunks,
        contentIntervalMs:
          turn.tokens_per_second === undefined
            ? undefined
            : contentInterval(reply, pieces, turn.tokens_per_second),
      });
      return;
    }
    if (turn.drop_after_chunks !== undefined) {
      // A whole-body answer has no chunks to count: the client gets headers, then a cut connection.
      res.writeHead(200, { "content-type": "application/json" });
      res.flushHeaders();
      res.socket?.destroy();
      return;
    }
    sendJson(res, 200, wire.completeResponse(reply));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { text, at } = await readBody(req);
    const body = parseJson(text);
    const target = req.url ?? "/";
    const recorded: RecordedRequest = {
      method: req.method ?? "",
      path: target,
      headers: { ...req.headers },
      body,
      bytes: Buffer.byteLength(text),
      receivedAt: at,
    };
    requests.push(recorded);
    res.on("finish", () => {
      recorded.respondedAt = performance.now();
    });
    if (options.recordFile !== undefined) appendFileSync(options.recordFile, `${JSON.stringify(body)}\n`);
    const url = new URL(target, "http://127.0.0.1");
    if (req.method === "POST" && (url.pathname === "/v1/embeddings" || url.pathname === "/embeddings")) {
      const embedded = isJsonObject(body) ? embeddingsResponse(body) : undefined;
      if (embedded) sendJson(res, 200, embedded);
      else
        sendJson(
          res,
          400,
          openaiWire.errorBody(400, "fake-llm: input must be a string or an array of strings"),
        );
      return;
    }
    const endpoint = endpointFor(req.method, url);
    if (endpoint === undefined) {
      sendJson(
        res,
        404,
        openaiWire.errorBody(
          404,
          `fake-llm: no endpoint for ${req.method} ${target}; POST /v1/chat/completions, /v1/messages, /v1/embeddings or /v1beta/models/{model}:streamGenerateContent`,
        ),
      );
      return;
    }
    if (!isJsonObject(body)) {
      sendJson(res, 400, endpoint.wire.errorBody(400, "fake-llm: the request body is not a JSON object"));
      return;
    }
    await answer(res, endpoint, body, Buffer.byteLength(text));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A client that hung up mid-request is not a server fault, and there is no one left to answer.
      if (res.destroyed) return;
      process.stderr.write(`fake-llm: failed to answer ${req.method} ${req.url}: ${String(error)}\n`);
      if (res.headersSent) res.socket?.destroy();
      else sendJson(res, 500, openaiWire.errorBody(500, `fake-llm: ${String(error)}`));
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === "string")
    throw new Error("fake-llm: the server has no TCP address");

  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    turnsServed: () => turnsServed,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive and hanging connections would hold close() open indefinitely.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
