import { newId } from "@lathe/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SessionStore } from "../../src/store/index.js";
import { uniquePrefix, uniquePrefixes } from "../../src/store/shortIds.js";
import { createStoreTestBed, message, type StoreTestBed, t0 } from "./storeTestBed.js";

let bed: StoreTestBed;
let store: SessionStore;
beforeEach(() => {
  bed = createStoreTestBed();
  store = bed.open();
});
afterEach(() => bed.cleanup());

describe("unique id prefixes", () => {
  it("is 8 characters when nothing else shares them, and never ends at a dash", () => {
    expect(
      uniquePrefix("0197a1b2-1111-7000-8000-000000000001", ["0198ffff-0000-7000-8000-000000000000"]),
    ).toBe("0197a1b2");
    expect(uniquePrefix("0197a1b2-1111-7000", ["0197a1b2-2222-7000"])).toBe("0197a1b2-1");
    expect(uniquePrefix("0197a1b2-1111-7000", ["0197a1b2-1112-7000", "0197a1b2-1011-7000"])).toBe(
      "0197a1b2-1111",
    );
  });

  it("tells apart ids made in the same millisecond", () => {
    const ids = [newId(t0), newId(t0), newId(t0)];
    const prefixes = uniquePrefixes(ids);
    const shown = ids.map((id) => prefixes.get(id)!);
    expect(new Set(shown).size).toBe(3);
    for (const [i, id] of ids.entries()) {
      expect(id.startsWith(shown[i]!)).toBe(true);
      expect(ids.filter((other) => other.startsWith(shown[i]!))).toEqual([id]);
    }
  });

  it("gives each stored session the prefix findSession resolves, and names them when a prefix is ambiguous", () => {
    // The first 8 characters count 65.536 s steps: sessions started within one step share them.
    const ids = [
      "01977420-03e8-7a01-8000-000000000001",
      "01977420-4e20-7b02-9000-000000000002",
      "01977420-9c40-7c03-a000-000000000003",
    ];
    for (const id of ids) store.ensureSession({ id, projectRoot: "/a", mode: "agent", model: "m" });
    const eight = "01977420";
    const shown = ids.map((id) => store.shortSessionId(id));
    for (const [i, id] of ids.entries()) {
      expect(store.findSession(shown[i]!)).toMatchObject({ ok: true, value: { id } });
    }
    expect(shown).toEqual(["01977420-0", "01977420-4", "01977420-9"]);
    expect(store.findSession(eight)).toMatchObject({
      ok: false,
      error: {
        code: "E_SESSION_NOT_FOUND",
        message: `More than one session starts with "${eight}" (${shown.join(", ")}); give more of the id.`,
      },
    });
  });

  it("forks at a message named by a unique prefix, and refuses an ambiguous one", () => {
    const sessionId = newId();
    store.ensureSession({ id: sessionId, projectRoot: "/a", mode: "agent", model: "m" });
    const messages = [0, 1, 2].map((i) =>
      message(sessionId, i === 1 ? "assistant" : "user", [{ type: "text", text: `m${i}` }], t0),
    );
    for (const m of messages) store.appendMessage(m);
    const stored = store.messages(sessionId);
    const prefixes = uniquePrefixes(stored.map((m) => m.id));
    const forked = store.fork(sessionId, prefixes.get(stored[1]!.id)!);
    expect(forked.ok).toBe(true);
    if (!forked.ok) return;
    expect(store.messages(forked.value).map((m) => m.parts)).toEqual(stored.slice(0, 2).map((m) => m.parts));
    const common = stored[0]!.id.slice(0, 8);
    const refused = store.fork(sessionId, common);
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error.code).toBe("E_SESSION_NOT_FOUND");
    expect(refused.error.message).toContain(`starts with "${common}"`);
  });

  it("keeps a backup fork behind the session it was taken of, once that session is rewound", () => {
    const sessionId = newId();
    store.ensureSession({ id: sessionId, projectRoot: "/a", mode: "agent", model: "m" });
    const first = message(sessionId, "user", [{ type: "text", text: "first" }], t0);
    const second = message(sessionId, "user", [{ type: "text", text: "second" }], t0 + 1);
    store.appendMessage(first);
    store.appendMessage(second);
    const backup = store.fork(sessionId, undefined, { backup: true });
    expect(backup.ok).toBe(true);
    if (!backup.ok) return;
    expect(store.truncateFrom(sessionId, second.id)).toEqual({ ok: true, value: 1 });
    expect(store.latestSession("/a")?.id).toBe(sessionId);
    expect(store.listSessions({ projectRoot: "/a" }).map((s) => s.id)).toEqual([sessionId, backup.value]);
  });
});
