import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { type EventStream, openEventStream } from "@lathe/server";

const latheBin = fileURLToPath(new URL("../bin/lathe.js", import.meta.url));

export interface ApiAnswer {
  status: number;
  body: unknown;
  /** The body as sent, to check what it does not contain. */
  text: string;
}

export interface ServeProcess {
  origin: string;
  token: string;
  api(method: string, path: string, body?: unknown): Promise<ApiAnswer>;
  /** The session's events after `since` (default: all the server holds), then live ones. */
  stream(sessionId: string, since?: number): Promise<EventStream>;
  stop(): Promise<void>;
}

/**
 * A real `lathe serve` in `cwd` with `$LATHE_HOME` at `home`: no provider key from the test's own
 * environment reaches it, only those in `env`.
 */
export async function startServe(options: {
  cwd: string;
  home: string;
  env?: Record<string, string>;
}): Promise<ServeProcess> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !/_API_KEY$/.test(key) && key !== "LATHE_MODEL") env[key] = value;
  }
  Object.assign(env, { LATHE_HOME: options.home }, options.env);
  const child: ChildProcess = spawn(process.execPath, [latheBin, "serve"], {
    cwd: options.cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`lathe serve exited with ${code}`)));
  });
  const url = new URL(line.replace(/^Lathe is serving at /, ""));
  const token = url.searchParams.get("token") ?? "";
  const streams: EventStream[] = [];
  return {
    origin: url.origin,
    token,
    async api(method, path, body) {
      const response = await fetch(`${url.origin}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, body: text === "" ? undefined : JSON.parse(text), text };
    },
    async stream(sessionId, since) {
      const stream = await openEventStream({
        origin: url.origin,
        token,
        sessionId,
        ...(since === undefined ? {} : { since }),
      });
      streams.push(stream);
      return stream;
    },
    async stop() {
      await Promise.all(streams.map((stream) => stream.close()));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
