import { type StreamMessage, streamMessageSchema } from "@lathe/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { ScriptedFactory } from "./scriptedFactory.js";
import { errorCode, startTestServer, type TestServer } from "./serverHarness.js";

let current: TestServer | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

async function serve(...args: Parameters<typeof startTestServer>): Promise<TestServer> {
  current = await startTestServer(...args);
  return current;
}

const isType =
  (type: string, extra: (message: StreamMessage) => boolean = () => true) =>
  (message: StreamMessage) =>
    message.type === type && extra(message);
const runComplete = isType("run_complete");
const idleAgain = (message: StreamMessage) => message.type === "state_change" && message.to === "idle";

describe("runs over HTTP and the event socket", () => {
  it("streams the run's exact events in order, then the session is idle", async () => {
    const t = await serve({
      factory: new ScriptedFactory({ turns: [{ text: "Hello from the script." }] }),
    });
    const id = await t.openSession();
    const stream = await t.stream(id);
    const sent = await t.api("POST", `/api/sessions/${id}/messages`, { text: "say hello" });
    expect(sent).toEqual({ status: 202, body: { queued: false } });
    await stream.waitFor(idleAgain);

    const messages = stream.received.map((item) => item.message);
    for (const message of messages) expect(streamMessageSchema.safeParse(message).success).toBe(true);
    expect(messages[0]).toMatchObject({ type: "hello", sessionId: id, lastSeq: -1 });
    expect(messages[1]).toEqual({ type: "pending_input", approvals: [], questions: [] });
    const events = stream.events();
    // Exactly what the engine emitted, nothing added, dropped or reordered.
    expect(events).toEqual(t.factory.made[0]!.events);
    const types = events
      .map((e) => e.type)
      .filter((type, i, all) => type !== "text_delta" || all[i - 1] !== type);
    expect(types).toEqual([
      "run_start",
      "turn_start",
      "state_change",
      "text_delta",
      "usage",
      "turn_end",
      "state_change",
      "run_complete",
      "state_change",
    ]);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
    const text = events.flatMap((e) => (e.type === "text_delta" ? [e.delta] : [])).join("");
    expect(text).toBe("Hello from the script.");
    expect(events.at(-2)).toMatchObject({ type: "run_complete", reason: "completed", final: text });

    const detail = await t.api("GET", `/api/sessions/${id}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      id,
      state: "idle",
      lastSeq: events.length - 1,
      todos: [],
      pendingApprovals: [],
      pendingQuestions: [],
    });
    expect(detail.body).toHaveProperty("messages.length", 2);
    const list = await t.api("GET", "/api/sessions");
    expect(list.body).toEqual([
      {
        id,
        projectRoot: t.factory.made[0]!.request.projectRoot,
        state: "idle",
        mode: "agent",
        lastSeq: events.length - 1,
      },
    ]);
  });

  it("a client that reconnects with the last seq it saw gets exactly the events it missed", async () => {
    const t = await serve({
      factory: new ScriptedFactory({
        turns: [{ text: "first answer, slowly", chunk_delay_ms: 20 }, { text: "second answer" }],
      }),
    });
    const id = await t.openSession();
    const first = await t.stream(id);
    await t.api("POST", `/api/sessions/${id}/messages`, { text: "one" });
    await first.waitFor(isType("text_delta"));
    await first.close();
    const seen = first.events();
    const lastSeen = seen.at(-1)!.seq;

    // While nobody listens, the first run ends and a second one runs.
    const engine = t.factory.made[0]!.events;
    await waitUntil(() => engine.filter((e) => e.type === "run_complete").length === 1);
    await t.api("POST", `/api/sessions/${id}/messages`, { text: "two" });
    await waitUntil(
      () =>
        engine.filter((e) => e.type === "run_complete").length === 2 &&
        engine.at(-1)?.type === "state_change",
    );

    const hello = first.received[0]!.message;
    const streamId = hello.type === "hello" ? hello.streamId : "";
    const second = await t.stream(id, lastSeen, streamId);
    await second.waitFor(isType("pending_input"));
    expect(second.received.map((item) => item.message.type)).not.toContain("replay_gap");
    expect([...seen, ...second.events()]).toEqual(engine);
    expect(second.events()[0]!.seq).toBe(lastSeen + 1);
  });

  it("says so first when the events a client asks for were dropped from the buffer", async () => {
    const t = await serve({ maxBufferedEvents: 4 });
    const id = await t.openSession();
    await t.api("POST", `/api/sessions/${id}/messages`, { text: "hello" });
    const engine = t.factory.made[0]!.events;
    await waitUntil(
      () => engine.at(-1)?.type === "state_change" && engine.some((e) => e.type === "run_complete"),
    );

    const stream = await t.stream(id, 1);
    await stream.waitFor(isType("pending_input"));
    const lastSeq = engine.at(-1)!.seq;
    expect(stream.received.map((item) => item.message).slice(0, 2)).toEqual([
      expect.objectContaining({ type: "hello", lastSeq }),
      { type: "replay_gap", since: 1, reason: "dropped", missingThrough: lastSeq - 4 },
    ]);
    expect(stream.events()).toEqual(engine.slice(-4));
  });

  it("replays everything with a gap notice when the client's stream is not this one", async () => {
    const t = await serve();
    const id = await t.openSession();
    await t.api("POST", `/api/sessions/${id}/messages`, { text: "hello" });
    const engine = t.factory.made[0]!.events;
    await waitUntil(
      () => engine.at(-1)?.type === "state_change" && engine.some((e) => e.type === "run_complete"),
    );

    const otherStream = await t.stream(id, 3, "some-earlier-stream");
    await otherStream.waitFor(isType("pending_input"));
    expect(otherStream.received[1]!.message).toEqual({ type: "replay_gap", since: 3, reason: "restarted" });
    expect(otherStream.events()).toEqual(engine);

    const ahead = await t.stream(id, 10_000);
    await ahead.waitFor(isType("pending_input"));
    expect(ahead.received[1]!.message).toEqual({ type: "replay_gap", since: 10_000, reason: "restarted" });
    expect(ahead.events()).toEqual(engine);
  });

  it("cancel stops a turn the model never answers, and the session is usable again", async () => {
    const t = await serve({
      factory: new ScriptedFactory({
        turns: [{ hang_ms: 60_000, text: "too late" }, { text: "back again" }],
      }),
    });
    const id = await t.openSession();
    const stream = await t.stream(id);
    await t.api("POST", `/api/sessions/${id}/messages`, { text: "wait forever" });
    await stream.waitFor(isType("state_change", (m) => m.type === "state_change" && m.to === "streaming"));
    const queued = await t.api("POST", `/api/sessions/${id}/messages`, { text: "queued behind" });
    expect(queued).toEqual({ status: 202, body: { queued: true } });

    const started = Date.now();
    expect(await t.api("POST", `/api/sessions/${id}/cancel`)).toEqual({
      status: 200,
      body: { cancelled: true },
    });
    const done = await stream.waitFor(runComplete, 10_000);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(done).toMatchObject({ reason: "cancelled" });
    await stream.waitFor(idleAgain);
    expect((await t.api("GET", `/api/sessions/${id}`)).body).toMatchObject({ state: "idle" });
    expect(await t.api("POST", `/api/sessions/${id}/cancel`)).toEqual({
      status: 200,
      body: { cancelled: false },
    });

    await t.api("POST", `/api/sessions/${id}/messages`, { text: "again" });
    const second = await stream.waitFor((m) => m.type === "run_complete" && m.reason === "completed", 5_000);
    expect(second).toMatchObject({ final: "back again" });
  });

  it("switches mode and approval mode, takes editor state and compacts between runs", async () => {
    const t = await serve();
    const id = await t.openSession({ mode: "ask" });
    expect((await t.api("GET", "/api/sessions")).body).toMatchObject([{ mode: "ask" }]);
    expect(await t.api("POST", `/api/sessions/${id}/mode`, { mode: "plan" })).toEqual({
      status: 200,
      body: { mode: "plan" },
    });
    expect((await t.api("GET", "/api/sessions")).body).toMatchObject([{ mode: "plan" }]);
    expect(await t.api("POST", `/api/sessions/${id}/approval-mode`, { approvalMode: "manual" })).toEqual({
      status: 200,
      body: { approvalMode: "manual" },
    });
    expect(errorCode(await t.api("POST", `/api/sessions/${id}/mode`, { mode: "reckless" }))).toBe(
      "E_INVALID_ARGS",
    );

    // A delta before any full state is the engine's cue that the editor must resend everything.
    const early = await t.api("POST", `/api/sessions/${id}/editor`, { delta: { activeFile: "a.ts" } });
    expect(early.status).toBe(400);
    expect(errorCode(early)).toBe("E_INVALID_ARGS");
    const full = { openFiles: [{ path: "a.ts", cursor: { line: 1, column: 1 } }], diagnostics: [] };
    expect(await t.api("POST", `/api/sessions/${id}/editor`, { full })).toEqual({
      status: 200,
      body: { ok: true },
    });
    expect(await t.api("POST", `/api/sessions/${id}/editor`, { delta: { activeFile: "a.ts" } })).toEqual({
      status: 200,
      body: { ok: true },
    });
    expect(t.factory.made[0]!.session.context.editor.current.activeFile).toBe("a.ts");

    expect(await t.api("POST", `/api/sessions/${id}/compact`, {})).toEqual({
      status: 200,
      body: { compacted: true },
    });
  });

  it("refuses to compact while a run is in flight", async () => {
    const t = await serve({ factory: new ScriptedFactory({ turns: [{ hang_ms: 60_000, text: "late" }] }) });
    const id = await t.openSession();
    await t.api("POST", `/api/sessions/${id}/messages`, { text: "hang" });
    const refused = await t.api("POST", `/api/sessions/${id}/compact`, { focus: "the plan" });
    expect(refused.status).toBe(409);
    expect(errorCode(refused)).toBe("E_SESSION_BUSY");
    await t.api("POST", `/api/sessions/${id}/cancel`);
  });

  it("DELETE closes the session: its stream ends and it is gone", async () => {
    const t = await serve();
    const id = await t.openSession();
    const stream = await t.stream(id);
    expect(await t.api("DELETE", `/api/sessions/${id}`)).toEqual({ status: 200, body: { closed: true } });
    expect(await stream.closed).toEqual({ code: 1000, reason: "session closed" });
    expect(t.factory.made[0]!.closed).toBe(true);
    expect(errorCode(await t.api("GET", `/api/sessions/${id}`))).toBe("E_SESSION_NOT_FOUND");
    expect((await t.api("GET", "/api/sessions")).body).toEqual([]);
  });

  it("refuses to open a stored session twice, and reports the factory's own errors", async () => {
    const t = await serve();
    const id = await t.openSession();
    const again = await t.api("POST", "/api/sessions", { projectRoot: "/tmp", resume: id });
    expect(again.status).toBe(409);
    expect(errorCode(again)).toBe("E_SESSION_OPEN");
    const unknown = await t.api("POST", "/api/sessions", { projectRoot: "/tmp", resume: "no-such-session" });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({
      error: { code: "E_INVALID_ARGS", message: "No stored session no-such-session." },
    });
  });
});

async function waitUntil(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
