import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { type FakeLlm, fakeKeys, startFakeLlm } from "@lathe/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { makeWorkspace } from "./latheProcess.js";

const latheBin = fileURLToPath(new URL("../bin/lathe.js", import.meta.url));

let server: FakeLlm | undefined;
let stop: (() => void) | undefined;
afterEach(async () => {
  stop?.();
  await server?.close();
  server = undefined;
});

describe("lathe serve", () => {
  it("serves sessions to a client with the token, runs a task, and refuses foreign origins", async () => {
    server = await startFakeLlm({
      script: {
        turns: [
          { tool_calls: [{ name: "write_file", arguments: { path: "hello.txt", contents: "hi\n" } }] },
          { text: "Wrote hello.txt." },
        ],
      },
    });
    const ws = await makeWorkspace(
      {},
      {
        model: "openai:gpt-4.1",
        baseUrls: { openai: `${server.url}/v1` },
        approvalMode: "yolo",
        sandbox: { mode: "off" },
      },
    );
    const child = spawn(process.execPath, [latheBin, "serve"], {
      env: { ...process.env, LATHE_HOME: ws.home, OPENAI_API_KEY: fakeKeys.openai },
      stdio: ["ignore", "pipe", "pipe"],
    });
    stop = () => child.kill("SIGTERM");
    const line = await new Promise<string>((resolve) =>
      createInterface({ input: child.stdout! }).once("line", resolve),
    );
    const url = new URL(line.replace(/^Lathe is serving at /, ""));
    const token = url.searchParams.get("token")!;
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${url.origin}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...init.headers },
      });

    expect((await fetch(`${url.origin}/api/sessions`)).status).toBe(401);
    expect((await api("/api/sessions", { headers: { origin: "http://evil.example" } })).status).toBe(403);

    const created = await api("/api/sessions", {
      method: "POST",
      body: JSON.stringify({ projectRoot: ws.root }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect(
      (
        await api(`/api/sessions/${id}/messages`, {
          method: "POST",
          body: JSON.stringify({ text: "Say hi in a file" }),
        })
      ).status,
    ).toBe(202);
    let state = "";
    for (let i = 0; i < 100 && !(state === "idle" && existsSync(join(ws.root, "hello.txt"))); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      state = ((await (await api(`/api/sessions/${id}`)).json()) as { state: string }).state;
    }
    expect(readFileSync(join(ws.root, "hello.txt"), "utf8")).toBe("hi\n");
    const shown = (await (await api(`/api/sessions/${id}`)).json()) as { messages: { role: string }[] };
    expect(shown.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
  });
});
