import { errorInfo, type SpanRecord, spanRecordSchema } from "@lathe/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SessionStore } from "../../src/store/index.js";
import {
  countRows,
  createStoreTestBed,
  eventStamper,
  message,
  type StoreTestBed,
  t0,
} from "./storeTestBed.js";

let bed: StoreTestBed;
let store: SessionStore;
beforeEach(() => {
  bed = createStoreTestBed();
  store = bed.open();
});
afterEach(() => bed.cleanup());

/** A session in `projectRoot` whose last activity is a user message at `at`. */
function sessionActiveAt(id: string, projectRoot: string, at: number): void {
  store.ensureSession({ id, projectRoot, mode: "agent", model: "m" });
  store.appendMessage(message(id, "user", [{ type: "text", text: `work on ${id}` }], at));
}

const ids = (sessions: { id: string }[]) => sessions.map((session) => session.id);

describe("findSession", () => {
  beforeEach(() => {
    sessionActiveAt("0197a1b2-1111-7000-8000-000000000001", "/a", t0);
    sessionActiveAt("0197a1b2-2222-7000-8000-000000000002", "/a", t0);
  });

  it("finds a session by its full id or a unique prefix", () => {
    const full = store.findSession("0197a1b2-1111-7000-8000-000000000001");
    expect(full).toMatchObject({
      ok: true,
      value: {
        id: "0197a1b2-1111-7000-8000-000000000001",
        projectRoot: "/a",
        title: "work on 0197a1b2-1111-7000-8000-000000000001",
        messageCount: 1,
      },
    });
    expect(store.findSession("0197a1b2-2")).toMatchObject({
      ok: true,
      value: { id: "0197a1b2-2222-7000-8000-000000000002" },
    });
  });

  it("is E_SESSION_NOT_FOUND for an ambiguous or unknown prefix", () => {
    expect(store.findSession("0197a1b2-")).toEqual({
      ok: false,
      error: errorInfo(
        "E_SESSION_NOT_FOUND",
        'More than one session starts with "0197a1b2-" (0197a1b2-1, 0197a1b2-2); give more of the id.',
      ),
    });
    expect(store.findSession("0197a1b3")).toEqual({
      ok: false,
      error: errorInfo("E_SESSION_NOT_FOUND", 'No session has the id "0197a1b3".'),
    });
    expect(store.findSession("")).toMatchObject({ ok: false, error: { code: "E_SESSION_NOT_FOUND" } });
  });

  it("matches % and _ in a prefix literally, not as LIKE wildcards", () => {
    sessionActiveAt("run_1", "/a", t0);
    sessionActiveAt("runx2", "/a", t0);
    sessionActiveAt("100%-done", "/a", t0);
    sessionActiveAt("1000-left", "/a", t0);
    expect(store.findSession("run_")).toMatchObject({ ok: true, value: { id: "run_1" } });
    expect(store.findSession("100%")).toMatchObject({ ok: true, value: { id: "100%-done" } });
    for (const wildcard of ["%", "_", "0197a1b2%", "_197"]) {
      expect(store.findSession(wildcard)).toMatchObject({
        ok: false,
        error: { code: "E_SESSION_NOT_FOUND" },
      });
    }
    sessionActiveAt("back\\slash", "/a", t0);
    expect(store.findSession("back\\")).toMatchObject({ ok: true, value: { id: "back\\slash" } });
  });

  it("prefers the session whose id is exactly what was given over longer ids starting with it", () => {
    sessionActiveAt("abc", "/a", t0);
    sessionActiveAt("abd", "/a", t0);
    sessionActiveAt("ab", "/a", t0);
    expect(store.findSession("ab")).toMatchObject({ ok: true, value: { id: "ab" } });
    expect(store.findSession("abc")).toMatchObject({ ok: true, value: { id: "abc" } });
  });
});

describe("listSessions and latestSession", () => {
  beforeEach(() => {
    sessionActiveAt("a1", "/a", t0 + 10);
    sessionActiveAt("a2", "/a", t0 + 30);
    sessionActiveAt("b1", "/b", t0 + 20);
    sessionActiveAt("a3", "/a", t0 + 5);
  });

  it("lists the most recently updated first, then by id, filtered by project and limited", () => {
    expect(ids(store.listSessions())).toEqual(["a2", "b1", "a1", "a3"]);
    expect(ids(store.listSessions({ projectRoot: "/a" }))).toEqual(["a2", "a1", "a3"]);
    expect(ids(store.listSessions({ limit: 2 }))).toEqual(["a2", "b1"]);
    expect(ids(store.listSessions({ projectRoot: "/a", limit: 1 }))).toEqual(["a2"]);
    expect(store.listSessions({ projectRoot: "/nowhere" })).toEqual([]);

    store.appendMessage(message("a3", "assistant", [{ type: "text", text: "done" }], t0 + 40));
    sessionActiveAt("b0", "/b", t0 + 40);
    expect(ids(store.listSessions())).toEqual(["b0", "a3", "a2", "b1", "a1"]);
  });

  it("describes each session with its project, counts and usage", () => {
    const [first] = store.listSessions({ limit: 1 });
    expect(first).toEqual({
      id: "a2",
      projectRoot: "/a",
      title: "work on a2",
      mode: "agent",
      model: "m",
      createdAt: expect.any(Number),
      updatedAt: t0 + 30,
      messageCount: 1,
      usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0, costUsd: 0 },
    });
  });

  it("gives the latest session of each project", () => {
    expect(store.latestSession("/a")?.id).toBe("a2");
    expect(store.latestSession("/b")?.id).toBe("b1");
    expect(store.latestSession("/nowhere")).toBeUndefined();
    store.appendMessage(message("a1", "user", [{ type: "text", text: "again" }], t0 + 50));
    expect(store.latestSession("/a")?.id).toBe("a1");
    expect(store.latestSession("/b")?.id).toBe("b1");
  });
});

function span(sessionId: string, overrides: Partial<SpanRecord>): SpanRecord {
  return {
    traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
    spanId: "00f067aa0ba902b7",
    sessionId,
    runId: "run-1",
    name: "run",
    startMs: t0,
    endMs: t0 + 3000,
    status: "ok",
    attributes: {},
    ...overrides,
  };
}

describe("checkpoints and spans", () => {
  beforeEach(() => {
    sessionActiveAt("s1", "/a", t0);
    sessionActiveAt("s2", "/a", t0);
  });

  it("checkpoints are listed back as they were added, per session", () => {
    const [userMessage] = store.messages("s1");
    const atMessage = store.addCheckpoint({
      sessionId: "s1",
      messageId: userMessage!.id,
      reason: "user_message",
      commit: "3f2a9c1e0b7d4a6f8e5c2b1a0d9e8f7a6b5c4d3e",
    });
    const atCall = store.addCheckpoint({
      sessionId: "s1",
      callId: "call-edit",
      reason: "tool_call",
      commit: "9e8f7a6b5c4d3e3f2a9c1e0b7d4a6f8e5c2b1a0d",
    });
    store.addCheckpoint({ sessionId: "s2", reason: "before_restore", commit: "0".repeat(40) });
    expect(atMessage).toEqual({
      id: expect.any(String),
      sessionId: "s1",
      messageId: userMessage!.id,
      reason: "user_message",
      commit: "3f2a9c1e0b7d4a6f8e5c2b1a0d9e8f7a6b5c4d3e",
      createdAt: expect.any(Number),
    });
    store.close();
    expect(bed.open().checkpoints("s1")).toEqual([atMessage, atCall]);
  });

  it("spans round-trip through the span schema, ordered by start, per session", () => {
    const run = span("s1", { attributes: { "lathe.mode": "agent", "lathe.iterations": 2 } });
    const tool = span("s1", {
      spanId: "b7ad6b7169203331",
      parentSpanId: run.spanId,
      name: "tool_call",
      startMs: t0 + 200.25,
      endMs: t0 + 288.5,
      status: "error",
      errorCode: "E_FILE_NOT_FOUND",
      attributes: { "tool.name": "read_file", "tool.approved": false, "tool.bytes": 0 },
    });
    const llm = span("s1", {
      spanId: "c7ad6b7169203332",
      parentSpanId: run.spanId,
      name: "llm_call",
      startMs: t0 + 1,
    });
    store.addSpan(tool);
    store.addSpan(run);
    store.addSpan(llm);
    store.addSpan(span("s2", { spanId: "d7ad6b7169203333" }));

    const read = store.spans("s1");
    expect(read).toEqual([run, llm, tool]);
    for (const record of read) expect(spanRecordSchema.parse(record)).toEqual(record);
    expect(read[0]).not.toHaveProperty("parentSpanId");
    expect(read[0]).not.toHaveProperty("errorCode");
  });

  it("a span added again under its id replaces the first", () => {
    store.addSpan(span("s1", { endMs: t0 + 1 }));
    store.addSpan(span("s1", { endMs: t0 + 2, status: "error", errorCode: "E_CANCELLED" }));
    expect(store.spans("s1")).toEqual([
      span("s1", { endMs: t0 + 2, status: "error", errorCode: "E_CANCELLED" }),
    ]);
  });
});

describe("deleteSession", () => {
  /** A session with a row in every table that belongs to one. */
  function populated(id: string): void {
    sessionActiveAt(id, "/a", t0);
    store.appendMessage(
      message(id, "assistant", [
        { type: "text", text: "Reading it." },
        {
          type: "tool_call",
          callId: `${id}-call`,
          providerCallId: "p1",
          name: "edit_file",
          arguments: {},
          rawArguments: "{}",
        },
      ]),
    );
    const stamp = eventStamper(id, `${id}-run`);
    const call = { callId: `${id}-call`, name: "edit_file" };
    const usage = {
      inputTokens: 10,
      outputTokens: 5,
      cachedInputTokens: 0,
      reasoningTokens: 0,
      costUsd: 0.001,
    };
    for (const event of [
      stamp({ type: "run_start", mode: "agent", model: "m", prompt: "go" }, t0),
      stamp({ type: "usage", usage, total: usage }, t0 + 1),
      stamp({ type: "tool_call_ready", ...call, arguments: {} }, t0 + 2),
      stamp(
        {
          type: "approval_required",
          ...call,
          approvalId: `${id}-approval`,
          arguments: {},
          risk: "low",
          reason: "r",
        },
        t0 + 3,
      ),
      stamp({ type: "tool_call_state", ...call, state: "scheduled" }, t0 + 4),
      stamp(
        { type: "tool_failed", ...call, error: errorInfo("E_NO_CHANGE", "nothing to do"), durationMs: 1 },
        t0 + 5,
      ),
    ]) {
      store.recordEvent(event);
    }
    store.addCheckpoint({ sessionId: id, callId: `${id}-call`, reason: "tool_call", commit: "c".repeat(40) });
    store.addSpan(span(id, { spanId: `${id}-span` }));
    store.addGrantedRule(id, "edit_file(src/**)", "session");
  }

  const perSession = [
    "messages",
    "runs",
    "tool_calls",
    "approvals",
    "checkpoints",
    "spans",
    "usage",
    "granted_rules",
  ];

  it("removes the session and everything recorded for it, and nothing of other sessions", () => {
    populated("doomed");
    populated("kept");
    const keptCounts = perSession.map((table) => countRows(store, table, "kept"));
    expect(keptCounts).toEqual([2, 1, 1, 1, 1, 1, 1, 1]);
    expect(countRows(store, "parts")).toBe(6);

    store.deleteSession("doomed");
    expect(perSession.map((table) => countRows(store, table, "doomed"))).toEqual(perSession.map(() => 0));
    expect(perSession.map((table) => countRows(store, table, "kept"))).toEqual(keptCounts);
    expect(countRows(store, "parts")).toBe(3);
    expect(countRows(store, "sessions")).toBe(1);
    expect(store.findSession("doomed")).toMatchObject({ ok: false, error: { code: "E_SESSION_NOT_FOUND" } });
    expect(store.integrityCheck()).toBe("ok");
    expect(store.db.prepare("PRAGMA foreign_key_check").all()).toEqual([]);
  });
});
