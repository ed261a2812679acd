import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type EventStream,
  openEventStream,
  type RunningServer,
  type ServerOptions,
  startServer,
} from "@lathe/server";
import { z } from "zod";
import { ScriptedFactory } from "./scriptedFactory.js";

const createdBody = z.object({ id: z.string(), streamId: z.string() });

/** The error shape every API failure has. */
export const errorBody = z.strictObject({ error: z.strictObject({ code: z.string(), message: z.string() }) });

/** The error code of an API answer (throws when the body is not an API error). */
export function errorCode(answer: ApiAnswer): string {
  return errorBody.parse(answer.body).error.code;
}

export interface ApiAnswer {
  status: number;
  body: unknown;
}

export interface TestServer {
  server: RunningServer;
  factory: ScriptedFactory;
  /** A JSON request with the bearer token. */
  api(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiAnswer>;
  /** Opens a session in a fresh temp project and returns its id. */
  openSession(extra?: Record<string, unknown>): Promise<string>;
  stream(sessionId: string, since?: number, streamId?: string): Promise<EventStream>;
  close(): Promise<void>;
}

export async function startTestServer(
  options: Partial<ServerOptions> & { factory?: ScriptedFactory } = {},
): Promise<TestServer> {
  const factory = options.factory ?? new ScriptedFactory();
  const server = await startServer({ ...options, factory });
  const streams: EventStream[] = [];
  const api: TestServer["api"] = async (method, path, body, headers = {}) => {
    const response = await fetch(`${server.origin}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${server.token}`,
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: typeof body === "string" ? body : JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };
  return {
    server,
    factory,
    api,
    async openSession(extra = {}) {
      const projectRoot = mkdtempSync(join(tmpdir(), "lathe-server-project-"));
      const created = await api("POST", "/api/sessions", { projectRoot, ...extra });
      const body = createdBody.safeParse(created.body);
      if (created.status !== 201 || !body.success) {
        throw new Error(`session not created: ${JSON.stringify(created.body)}`);
      }
      return body.data.id;
    },
    async stream(sessionId, since, streamId) {
      const stream = await openEventStream({
        origin: server.origin,
        token: server.token,
        sessionId,
        ...(since !== undefined ? { since } : {}),
        ...(streamId !== undefined ? { streamId } : {}),
      });
      streams.push(stream);
      return stream;
    },
    async close() {
      await Promise.all(streams.map((stream) => stream.close()));
      await server.close();
      await factory.dispose();
    },
  };
}
