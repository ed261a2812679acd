import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SessionStore } from "../../src/store/index.js";
import {
  conversation,
  countRows,
  createStoreTestBed,
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

const session = {
  id: "0197a1b2-0000-7000-8000-000000000001",
  projectRoot: "/work/app",
  mode: "agent",
  model: "m",
};

const titleOf = (id: string) => {
  const found = store.findSession(id);
  if (!found.ok) throw new Error(found.error.message);
  return found.value.title;
};

describe("messages", () => {
  it("round-trip every part type exactly, in order, across a reopen", () => {
    const sent = conversation(session.id);
    store.ensureSession(session, sent.slice(0, 2));
    for (const m of sent.slice(2)) store.appendMessage(m);
    expect(store.messages(session.id)).toEqual(sent);
    store.close();

    const reopened = bed.open();
    const read = reopened.messages(session.id);
    expect(read).toEqual(sent);
    expect(read.map((m) => m.parts.map((p) => p.type))).toEqual([
      ["text", "file"],
      ["reasoning", "text", "tool_call", "tool_call"],
      ["tool_result", "tool_result", "system_reminder"],
      ["compaction_summary"],
      [],
    ]);
    // Strict: the call whose arguments did not parse has them undefined again, not null or missing.
    expect(read).toStrictEqual(sent);
    expect(reopened.findSession(session.id)).toMatchObject({ ok: true, value: { messageCount: 5 } });
  });

  it("ignores a second ensureSession of an existing session", () => {
    const sent = conversation(session.id);
    store.ensureSession(session, sent.slice(0, 1));
    store.ensureSession({ ...session, model: "other", title: "other" }, sent.slice(1, 2));
    // The messages given with it are still stored; the session row is the first one.
    const found = store.findSession(session.id);
    expect(found).toMatchObject({
      ok: true,
      value: { model: "m", title: "Fix the failing test in src/sum.ts" },
    });
    expect(store.messages(session.id)).toEqual(sent.slice(0, 2));
  });

  it("are empty for an unknown session", () => {
    expect(store.messages("nope")).toEqual([]);
  });
});

describe("titles", () => {
  it("come from the first line of the first user message and are kept after later messages", () => {
    store.ensureSession(session);
    expect(titleOf(session.id)).toBe("");
    store.appendMessage(message(session.id, "assistant", [{ type: "text", text: "Hello, how can I help?" }]));
    expect(titleOf(session.id)).toBe("");
    store.appendMessage(
      message(session.id, "user", [
        { type: "file", path: "a.txt", mediaType: "text/plain" },
        { type: "text", text: "\n  Rename the config loader\nand update callers" },
      ]),
    );
    expect(titleOf(session.id)).toBe("Rename the config loader");
    store.appendMessage(message(session.id, "user", [{ type: "text", text: "Something else entirely" }]));
    expect(titleOf(session.id)).toBe("Rename the config loader");
  });

  it("are cut at 80 characters, ending with an ellipsis", () => {
    const exactly80 = "x".repeat(80);
    const long = `${"abcdefghij".repeat(10)}\nsecond line`;
    store.ensureSession(session, [message(session.id, "user", [{ type: "text", text: long }])]);
    const title = titleOf(session.id);
    expect(title).toBe(`${"abcdefghij".repeat(7)}abcdefghi…`);
    expect(title).toHaveLength(80);

    const other = { ...session, id: "0197a1b2-0000-7000-8000-000000000002" };
    store.ensureSession(other, [message(other.id, "user", [{ type: "text", text: exactly80 }])]);
    expect(titleOf(other.id)).toBe(exactly80);
  });

  it("change with rename, and a given title is not replaced by the first message", () => {
    store.ensureSession({ ...session, title: "Chosen" });
    store.appendMessage(message(session.id, "user", [{ type: "text", text: "first" }]));
    expect(titleOf(session.id)).toBe("Chosen");
    store.rename(session.id, "Renamed");
    expect(titleOf(session.id)).toBe("Renamed");
    store.appendMessage(message(session.id, "user", [{ type: "text", text: "later" }]));
    expect(titleOf(session.id)).toBe("Renamed");
  });
});

describe("fork", () => {
  it("copies the whole conversation into a new session with new message ids", () => {
    const sent = conversation(session.id);
    store.ensureSession(session, sent);
    const forked = store.fork(session.id);
    if (!forked.ok) throw new Error(forked.error.message);
    expect(forked.value).not.toBe(session.id);

    const info = store.findSession(forked.value);
    expect(info).toMatchObject({
      ok: true,
      value: {
        parentSessionId: session.id,
        forkedFromMessageId: sent.at(-1)!.id,
        title: "Fix the failing test in src/sum.ts (fork)",
        projectRoot: session.projectRoot,
        mode: "agent",
        model: "m",
        messageCount: sent.length,
      },
    });
    const copies = store.messages(forked.value);
    expect(copies.map((m) => [m.role, m.parts, m.createdAt, m.sessionId])).toEqual(
      sent.map((m) => [m.role, m.parts, m.createdAt, forked.value]),
    );
    const originalIds = new Set(sent.map((m) => m.id));
    expect(copies.filter((m) => originalIds.has(m.id))).toEqual([]);
    expect(store.messages(session.id)).toEqual(sent);
  });

  it("at a message keeps that message and the ones before it", () => {
    const sent = conversation(session.id);
    store.ensureSession(session, sent);
    const at = sent[2]!;
    const forked = store.fork(session.id.slice(0, 13), at.id);
    if (!forked.ok) throw new Error(forked.error.message);
    expect(store.findSession(forked.value)).toMatchObject({
      ok: true,
      value: { parentSessionId: session.id, forkedFromMessageId: at.id, messageCount: 3 },
    });
    expect(store.messages(forked.value).map((m) => m.parts)).toEqual(sent.slice(0, 3).map((m) => m.parts));
    expect(store.messages(session.id)).toEqual(sent);
  });

  it("of an unknown message or session is E_SESSION_NOT_FOUND and creates nothing", () => {
    store.ensureSession(session, conversation(session.id));
    const sessions = countRows(store, "sessions");
    const messages = countRows(store, "messages");
    expect(store.fork(session.id, "no-such-message")).toMatchObject({
      ok: false,
      error: { code: "E_SESSION_NOT_FOUND" },
    });
    expect(store.fork("ffffffff")).toMatchObject({ ok: false, error: { code: "E_SESSION_NOT_FOUND" } });
    expect([countRows(store, "sessions"), countRows(store, "messages")]).toEqual([sessions, messages]);
  });
});

describe("truncateFrom", () => {
  it("removes the message and every later one, and nothing before it or in other sessions", () => {
    const sent = conversation(session.id);
    store.ensureSession(session, sent);
    const other = { ...session, id: "0197a1b2-0000-7000-8000-000000000002" };
    store.ensureSession(other, conversation(other.id));
    const partsBefore = countRows(store, "parts");

    expect(store.truncateFrom(session.id, sent[3]!.id)).toEqual({ ok: true, value: 2 });
    expect(store.messages(session.id)).toEqual(sent.slice(0, 3));
    expect(store.messages(other.id)).toHaveLength(sent.length);
    // The removed messages' parts go with them: one compaction summary, and none for the empty message.
    expect(countRows(store, "parts")).toBe(partsBefore - 1);

    const next = message(session.id, "user", [{ type: "text", text: "try again" }], t0 + 10_000);
    store.appendMessage(next);
    expect(store.messages(session.id)).toEqual([...sent.slice(0, 3), next]);
  });

  it("of a message of another session is E_SESSION_NOT_FOUND and removes nothing", () => {
    const sent = conversation(session.id);
    store.ensureSession(session, sent);
    const other = { ...session, id: "0197a1b2-0000-7000-8000-000000000002" };
    const otherMessages = conversation(other.id);
    store.ensureSession(other, otherMessages);
    expect(store.truncateFrom(session.id, otherMessages[0]!.id)).toMatchObject({
      ok: false,
      error: { code: "E_SESSION_NOT_FOUND" },
    });
    expect(store.messages(session.id)).toEqual(sent);
    expect(store.messages(other.id)).toEqual(otherMessages);
  });
});
