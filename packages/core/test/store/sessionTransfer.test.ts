import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { exportSession, importSession, type SessionStore } from "../../src/store/index.js";
import { conversation, countRows, createStoreTestBed, type StoreTestBed } from "./storeTestBed.js";

let bed: StoreTestBed;
let store: SessionStore;
beforeEach(() => {
  bed = createStoreTestBed();
  store = bed.open();
  store.ensureSession(session, sent);
});
afterEach(() => bed.cleanup());

const session = {
  id: "0197a1b2-0000-7000-8000-0000000000e1",
  projectRoot: "/work/app",
  mode: "plan",
  model: "m",
};
const sent = conversation(session.id);

function exported(): string {
  const text = exportSession(store, session.id.slice(0, 20));
  if (!text.ok) throw new Error(text.error.message);
  return text.value;
}

/** Replaces text that must be there, so a spoiled line is never accidentally left valid. */
function swap(line: string, from: string, to: string): string {
  if (!line.includes(from)) throw new Error(`${from} is not in ${line}`);
  return line.replace(from, to);
}

const tableSizes = () =>
  ["sessions", "messages", "parts", "projects"].map((table) => countRows(store, table));

describe("export and import", () => {
  it("writes a header line, then one line per message", () => {
    const lines = exported().trimEnd().split("\n");
    expect(lines).toHaveLength(1 + sent.length);
    expect(JSON.parse(lines[0]!)).toEqual({
      type: "session",
      version: 1,
      id: session.id,
      title: "Fix the failing test in src/sum.ts",
      mode: "plan",
      model: "m",
      projectRoot: "/work/app",
      createdAt: expect.any(Number),
    });
    expect(lines.slice(1).map((line) => JSON.parse(line).message.id)).toEqual(sent.map((m) => m.id));
  });

  it("round-trips into a new session of the given project with the same messages under new ids", () => {
    const imported = importSession(store, exported(), "/elsewhere");
    if (!imported.ok) throw new Error(imported.error.message);
    expect(imported.value).not.toBe(session.id);
    expect(store.findSession(imported.value)).toMatchObject({
      ok: true,
      value: {
        projectRoot: "/elsewhere",
        title: "Fix the failing test in src/sum.ts",
        mode: "plan",
        model: "m",
      },
    });
    const copies = store.messages(imported.value);
    expect(copies.map((m) => [m.role, m.parts, m.createdAt])).toStrictEqual(
      sent.map((m) => [m.role, m.parts, m.createdAt]),
    );
    expect(copies.some((m) => sent.some((original) => original.id === m.id))).toBe(false);
    expect(store.messages(session.id)).toEqual(sent);

    const again = importSession(store, exported(), "/elsewhere");
    expect(again.ok && again.value !== imported.value).toBe(true);
    expect(countRows(store, "sessions")).toBe(3);
  });

  it("of an unknown session is E_SESSION_NOT_FOUND", () => {
    expect(exportSession(store, "ffff")).toMatchObject({ ok: false, error: { code: "E_SESSION_NOT_FOUND" } });
  });

  /** Each a valid export spoiled in one place, so only that place can be why it is refused. */
  const spoiled: [string, (lines: string[]) => string[], string][] = [
    ["a line that is not JSON", (lines) => lines.with(2, "{not json"), "Line 3 is not JSON."],
    [
      "a header of another kind",
      (lines) => lines.with(0, JSON.stringify({ ...JSON.parse(lines[0]!), type: "conversation" })),
      "Line 1 must be the session header of a Lathe export.",
    ],
    [
      "a header of a newer version",
      (lines) => lines.with(0, JSON.stringify({ ...JSON.parse(lines[0]!), version: 2 })),
      "Line 1 must be the session header of a Lathe export.",
    ],
    ["no header at all", (lines) => lines.slice(1), "Line 1 must be the session header of a Lathe export."],
    [
      "a message with an unknown role",
      (lines) => lines.with(2, swap(lines[2]!, '"role":"assistant"', '"role":"system"')),
      "Line 3 is not a message",
    ],
    [
      "a part of an unknown type",
      (lines) => lines.with(1, swap(lines[1]!, '"type":"file"', '"type":"image"')),
      "Line 2 is not a message",
    ],
    [
      "a last line that is not a message",
      (lines) => [...lines, JSON.stringify({ type: "note", text: "hi" })],
      `Line ${sent.length + 2} is not a message`,
    ],
  ];

  it.each(spoiled)("refuses %s with E_INVALID_ARGS and writes nothing", (_, spoil, why) => {
    const lines = exported().trimEnd().split("\n");
    const before = tableSizes();
    const outcome = importSession(store, `${spoil(lines).join("\n")}\n`, "/elsewhere");
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe("E_INVALID_ARGS");
    expect(outcome.error.message).toContain(why);
    expect(tableSizes()).toEqual(before);
  });

  it("refuses an empty file and binary noise the same way", () => {
    const before = tableSizes();
    for (const text of ["", "\n\n", "\u0000\u0001PK\u0003\u0004garbage"]) {
      expect(importSession(store, text, "/elsewhere")).toMatchObject({
        ok: false,
        error: { code: "E_INVALID_ARGS" },
      });
    }
    expect(tableSizes()).toEqual(before);
  });
});
