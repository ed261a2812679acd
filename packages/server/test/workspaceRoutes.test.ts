import { mkdtempSync, realpathSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serviceError } from "@lathe/server";
import { afterEach, describe, expect, it } from "vitest";
import { RecordingServices } from "./recordingServices.js";
import { ScriptedFactory } from "./scriptedFactory.js";
import { errorCode, startTestServer, type TestServer } from "./serverHarness.js";

let current: TestServer | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

async function serve(factory = new ScriptedFactory()) {
  const services = new RecordingServices();
  current = await startTestServer({ factory, services });
  return { t: current, services };
}

const q = (params: Record<string, string>) => `?${new URLSearchParams(params)}`;

describe("workspace routes hand validated requests to the services", () => {
  it("passes each route's arguments, the project root resolved to its real path", async () => {
    const { t, services } = await serve();
    const real = realpathSync(mkdtempSync(join(tmpdir(), "lathe-routes-")));
    const linked = join(realpathSync(tmpdir()), `lathe-routes-link-${process.pid}-${Date.now()}`);
    symlinkSync(real, linked);
    // Opened through its link: the routes below name its real path.
    expect((await t.api("POST", "/api/projects", { projectRoot: linked })).body).toEqual({
      projectRoot: real,
    });

    expect((await t.api("GET", "/api/info")).body).toMatchObject({ version: "0.0.0-test" });
    expect(await t.api("GET", "/api/stored-sessions")).toEqual({ status: 200, body: [] });
    expect((await t.api("GET", `/api/stored-sessions${q({ projectRoot: linked })}`)).status).toBe(200);
    expect((await t.api("GET", "/api/sessions/s1/checkpoints")).status).toBe(200);
    expect((await t.api("GET", "/api/sessions/s1/checkpoints/c1/diff")).status).toBe(200);
    expect((await t.api("GET", "/api/sessions/s1/checkpoints/c1/changes")).body).toEqual({ files: [] });
    expect(
      await t.api("POST", "/api/sessions/s1/checkpoints/c1/reject", {
        path: "a.ts",
        version: "v1",
        hunks: [1],
      }),
    ).toEqual({ status: 200, body: { written: ["a.ts"], removed: [], before: "before-reject" } });
    expect((await t.api("GET", "/api/sessions/s1/trace")).body).toEqual({ spans: [] });
    expect((await t.api("GET", "/api/settings")).status).toBe(200);
    expect((await t.api("PUT", "/api/settings", { settings: { model: "openai:gpt-4.1" } })).status).toBe(200);
    expect(await t.api("PUT", "/api/keys/openai", { key: " sk-test-123 " })).toEqual({
      status: 200,
      body: { stored: true },
    });
    expect((await t.api("GET", `/api/memories${q({ projectRoot: real })}`)).status).toBe(200);
    expect(await t.api("DELETE", `/api/memories/m1${q({ projectRoot: real })}`)).toEqual({
      status: 200,
      body: { deleted: true },
    });
    expect((await t.api("GET", `/api/rules${q({ projectRoot: real })}`)).status).toBe(200);
    expect((await t.api("GET", `/api/mcp${q({ projectRoot: real })}`)).status).toBe(200);
    expect(
      (
        await t.api("POST", `/api/mcp${q({ projectRoot: real })}`, {
          name: "docs",
          command: "node",
          args: ["d.js"],
        })
      ).body,
    ).toEqual({ name: "docs", file: "/home/u/.lathe/mcp.json" });
    expect(
      (await t.api("POST", `/api/mcp${q({ projectRoot: real })}`, { name: "web", url: "https://x.test/mcp" }))
        .status,
    ).toBe(200);
    expect((await t.api("DELETE", `/api/mcp/docs${q({ projectRoot: real })}`)).status).toBe(200);

    expect(services.calls).toEqual([
      { method: "info", args: [] },
      { method: "storedSessions", args: [undefined] },
      { method: "storedSessions", args: [real] },
      { method: "checkpoints", args: ["s1"] },
      { method: "checkpointDiff", args: ["s1", "c1"] },
      { method: "checkpointChanges", args: ["s1", "c1"] },
      { method: "rejectChanges", args: ["s1", "c1", { path: "a.ts", version: "v1", hunks: [1] }] },
      { method: "trace", args: ["s1"] },
      { method: "settings", args: [] },
      { method: "updateSettings", args: [{ model: "openai:gpt-4.1" }] },
      { method: "storeKey", args: ["openai", "sk-test-123"] },
      { method: "memories", args: [real] },
      { method: "deleteMemory", args: [real, "m1"] },
      { method: "rules", args: [real] },
      { method: "mcpServers", args: [real] },
      { method: "addMcpServer", args: [real, "docs", { command: "node", args: ["d.js"] }] },
      { method: "addMcpServer", args: [real, "web", { url: "https://x.test/mcp" }] },
      { method: "removeMcpServer", args: [real, "docs"] },
    ]);
  });

  it("refuses bad queries and bodies with 400 before any service is called", async () => {
    const { t, services } = await serve();
    const root = mkdtempSync(join(tmpdir(), "lathe-routes-"));
    const opened = realpathSync(mkdtempSync(join(tmpdir(), "lathe-routes-open-")));
    expect((await t.api("POST", "/api/projects", { projectRoot: opened })).status).toBe(200);
    const cases: [string, string, unknown?][] = [
      ["GET", `/api/rules${q({ projectRoot: "relative/dir" })}`],
      ["GET", `/api/rules${q({ projectRoot: join(root, "missing") })}`],
      ["GET", "/api/rules"],
      ["GET", `/api/rules${q({ projectRoot: root, extra: "1" })}`],
      ["GET", `/api/rules?projectRoot=${encodeURIComponent(root)}&projectRoot=${encodeURIComponent(root)}`],
      ["GET", `/api/settings${q({ surprise: "1" })}`],
      ["PUT", "/api/settings", { model: "openai:gpt-4.1" }],
      ["PUT", "/api/settings", { settings: ["not", "an", "object"] }],
      ["PUT", "/api/keys/openai", { key: "" }],
      ["PUT", "/api/keys/openai", { key: "two words" }],
      ["PUT", "/api/keys/openai", { key: "k", extra: true }],
      ["POST", "/api/sessions/s1/checkpoints/c1/restore", { code: false, conversation: false }],
      ["POST", "/api/sessions/s1/checkpoints/c1/restore", { code: "yes" }],
      ["POST", "/api/sessions/s1/checkpoints/c1/restore", { files: true }],
      ["POST", "/api/sessions/s1/checkpoints/c1/reject", { path: "a.ts" }],
      ["POST", "/api/sessions/s1/checkpoints/c1/reject", { path: "a.ts", version: "v1", hunks: [] }],
      ["POST", "/api/sessions/s1/checkpoints/c1/reject", { path: "a.ts", version: "v1", hunks: [-1] }],
      ["POST", "/api/sessions/s1/checkpoints/c1/reject", { path: "", version: "v1" }],
      ["POST", `/api/mcp${q({ projectRoot: opened })}`, { name: "a b", command: "node" }],
      [
        "POST",
        `/api/mcp${q({ projectRoot: opened })}`,
        { name: "x", command: "node", url: "https://x.test" },
      ],
      ["POST", `/api/mcp${q({ projectRoot: opened })}`, { name: "x", url: "file:///etc/passwd" }],
      ["POST", `/api/mcp${q({ projectRoot: opened })}`, { name: "x" }],
      ["GET", `/api/files${q({ projectRoot: "relative" })}`],
      ["GET", `/api/mentions${q({ projectRoot: root, q: "a", more: "b" })}`],
    ];
    for (const [method, path, body] of cases) {
      const answer = await t.api(method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(400);
      expect(errorCode(answer)).toBe("E_INVALID_ARGS");
    }
    const relative = await t.api("GET", `/api/memories${q({ projectRoot: "relative/dir" })}`);
    expect(relative.body).toMatchObject({ error: { message: expect.stringContaining("absolute") } });
    expect(services.calls).toEqual([]);
    expect(errorCode(await t.api("POST", "/api/settings", {}))).toBe("E_METHOD_NOT_ALLOWED");
    expect(errorCode(await t.api("GET", "/api/keys/openai"))).toBe("E_METHOD_NOT_ALLOWED");
    expect(errorCode(await t.api("GET", "/api/sessions/s1/checkpoints/c1/restore"))).toBe(
      "E_METHOD_NOT_ALLOWED",
    );
    expect(errorCode(await t.api("GET", "/api/sessions/s1/checkpoints/c1/undo"))).toBe("E_NOT_FOUND");
    expect(errorCode(await t.api("GET", "/api/info/more"))).toBe("E_NOT_FOUND");
  });

  it("answers service failures with the status of their kind and their own code", async () => {
    const { t, services } = await serve();
    services.failNext(
      "checkpoints",
      serviceError("not_found", "E_SESSION_NOT_FOUND", "No stored session s9."),
    );
    expect(await t.api("GET", "/api/sessions/s9/checkpoints")).toEqual({
      status: 404,
      body: { error: { code: "E_SESSION_NOT_FOUND", message: "No stored session s9." } },
    });
    services.failNext(
      "updateSettings",
      serviceError("invalid", "E_INVALID_ARGS", "maxIterations: too small"),
    );
    expect((await t.api("PUT", "/api/settings", { settings: { maxIterations: -1 } })).status).toBe(400);
    services.failNext("storeKey", serviceError("conflict", "E_LLM_AUTH", "chmod 600 it"));
    expect((await t.api("PUT", "/api/keys/openai", { key: "k" })).status).toBe(409);
    services.failNext("trace", serviceError("failed", "E_STORAGE", "disk gone"));
    expect((await t.api("GET", "/api/sessions/s1/trace")).status).toBe(500);
  });

  it("answers 501 for workspace routes when the server has no services, files and mentions still work", async () => {
    current = await startTestServer({});
    const root = realpathSync(mkdtempSync(join(tmpdir(), "lathe-routes-")));
    await current.api("POST", "/api/projects", { projectRoot: root });
    for (const path of ["/api/info", "/api/settings", "/api/stored-sessions", "/api/sessions/s1/trace"]) {
      const answer = await current.api("GET", path);
      expect(answer.status, path).toBe(501);
      expect(errorCode(answer)).toBe("E_NOT_SUPPORTED");
    }
    expect(await current.api("GET", `/api/files${q({ projectRoot: root })}`)).toEqual({
      status: 200,
      body: { dir: "", entries: [] },
    });
    expect((await current.api("GET", `/api/mentions${q({ projectRoot: root, q: "li" })}`)).body).toEqual({
      items: [{ kind: "lints", label: "@lints", insert: "@lints", detail: "the current lint errors" }],
    });
  });
});

describe("checkpoint restore of an open session", () => {
  it("closes the idle session, restores while it is closed, and opens it again with a new stream", async () => {
    const factory = new ScriptedFactory({ turns: [{ text: "First answer." }] });
    const { t, services } = await serve(factory);
    const id = await t.openSession({ mode: "ask" });
    const stream = await t.stream(id);
    await t.api("POST", `/api/sessions/${id}/messages`, { text: "hello" });
    await stream.waitFor((m) => m.type === "run_complete");
    await stream.waitFor((m) => m.type === "state_change" && m.to === "idle");
    const before = (await t.api("GET", `/api/sessions/${id}`)).body as { streamId: string };
    const seenDuringRestore: { closed: boolean; made: number }[] = [];
    services.duringRestore = () =>
      seenDuringRestore.push({ closed: factory.made[0]!.closed, made: factory.made.length });

    const restored = await t.api("POST", `/api/sessions/${id}/checkpoints/c1/restore`, { code: false });
    expect(restored.status).toBe(200);
    const body = restored.body as { streamId: string };
    expect(body).toEqual({
      written: ["a.txt"],
      removed: [],
      messagesRemoved: 2,
      backupSession: "backup-id",
      streamId: expect.any(String),
    });
    expect(body.streamId).not.toBe(before.streamId);
    // The old engine was gone and the new one not yet made while the stored session changed.
    expect(seenDuringRestore).toEqual([{ closed: true, made: 1 }]);
    expect(services.calls.at(-1)).toEqual({
      method: "restoreCheckpoint",
      args: [id, "c1", { code: false, conversation: true }],
    });
    // The old stream ended; the session is open again under its id, in its mode, on the new stream.
    expect(await stream.closed).toEqual({ code: 1000, reason: "session closed" });
    expect(factory.made).toHaveLength(2);
    expect(factory.made[1]!.request).toMatchObject({ resume: id, mode: "ask" });
    const after = await t.api("GET", `/api/sessions/${id}`);
    expect(after.body).toMatchObject({ id, mode: "ask", state: "idle", streamId: body.streamId });
    expect((await t.api("GET", "/api/sessions")).body).toHaveLength(1);
  });

  it("refuses while a run is in progress and leaves the session as it was", async () => {
    const factory = new ScriptedFactory({
      turns: [
        { tool_calls: [{ name: "write_file", arguments: { path: "n.txt", contents: "x" } }] },
        { text: "done" },
      ],
      approvalMode: "ask_first",
    });
    const { t, services } = await serve(factory);
    const id = await t.openSession();
    const stream = await t.stream(id);
    await t.api("POST", `/api/sessions/${id}/messages`, { text: "write" });
    await stream.waitFor((m) => m.type === "approval_required");

    const refused = await t.api("POST", `/api/sessions/${id}/checkpoints/c1/restore`, {});
    expect(refused.status).toBe(409);
    expect(errorCode(refused)).toBe("E_SESSION_BUSY");
    // Rejecting reviewed changes is refused the same way: the run may be writing those files.
    const rejected = await t.api("POST", `/api/sessions/${id}/checkpoints/c1/reject`, {
      path: "n.txt",
      version: "v",
    });
    expect(rejected.status).toBe(409);
    expect(errorCode(rejected)).toBe("E_SESSION_BUSY");
    expect(services.calls).toEqual([]);
    expect(factory.made[0]!.closed).toBe(false);
    expect((await t.api("GET", `/api/sessions/${id}`)).body).toMatchObject({ state: "awaiting_approval" });
  });

  it("restores a session that is not open without opening it: no stream id", async () => {
    const { t, services } = await serve();
    const restored = await t.api("POST", "/api/sessions/stored-only/checkpoints/c1/restore", {});
    expect(restored).toEqual({
      status: 200,
      body: { written: ["a.txt"], removed: [], messagesRemoved: 2, backupSession: "backup-id" },
    });
    expect(services.calls).toEqual([
      { method: "restoreCheckpoint", args: ["stored-only", "c1", { code: true, conversation: true }] },
    ]);
    expect((await t.api("GET", "/api/sessions")).body).toEqual([]);
  });

  it("opens the session again even when the restore fails, and reports the failure", async () => {
    const factory = new ScriptedFactory({ turns: [{ text: "hi" }] });
    const { t, services } = await serve(factory);
    const id = await t.openSession();
    services.failNext("restoreCheckpoint", serviceError("not_found", "E_CHECKPOINT", "No checkpoint c9."));
    const failed = await t.api("POST", `/api/sessions/${id}/checkpoints/c9/restore`, {});
    expect(failed).toEqual({
      status: 404,
      body: { error: { code: "E_CHECKPOINT", message: "No checkpoint c9." } },
    });
    expect((await t.api("GET", `/api/sessions/${id}`)).status).toBe(200);
    expect(factory.made).toHaveLength(2);
  });
});
