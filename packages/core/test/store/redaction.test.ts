import { existsSync, readFileSync } from "node:fs";
import { errorInfo } from "@lathe/protocol";
import { fakeKeys } from "@lathe/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { exportSession, importSession, type SessionStore } from "../../src/store/index.js";
import { createStoreTestBed, eventStamper, message, type StoreTestBed, t0 } from "./storeTestBed.js";

const secret = fakeKeys.lathe;
const marker = "[redacted]";
/** The way the engine's redactor works: every occurrence of a known secret, replaced whole. */
const redact = (text: string) => text.split(secret).join(marker);

let bed: StoreTestBed;
let store: SessionStore;
beforeEach(() => {
  bed = createStoreTestBed();
  store = bed.open({ redact });
});
afterEach(() => bed.cleanup());

const sessionId = "0197a1b2-0000-7000-8000-0000000000f1";
/** Long enough that the title is cut in the middle of the secret. */
const prompt = `Use this key for the staging deploy, it is the only one that works: ${secret} thanks\nmore`;

/** Every place a secret can reach the store: messages, the event stream, spans, rules and titles. */
function writeEverywhere(): void {
  store.ensureSession({ id: sessionId, projectRoot: "/work/app", mode: "agent", model: "m" });
  const call = { callId: "call-curl", name: "run_terminal_cmd" };
  const command = `curl -H "Authorization: Bearer ${secret}" https://api.example.com`;
  store.appendMessage(message(sessionId, "user", [{ type: "text", text: prompt }], t0));
  store.appendMessage(
    message(
      sessionId,
      "assistant",
      [
        { type: "reasoning", text: `The user gave ${secret}.` },
        {
          type: "tool_call",
          ...call,
          providerCallId: "p1",
          arguments: { command },
          rawArguments: JSON.stringify({ command }),
        },
      ],
      t0 + 1,
    ),
  );
  store.appendMessage(
    message(
      sessionId,
      "tool",
      [
        {
          type: "tool_result",
          ...call,
          providerCallId: "p1",
          status: "error",
          output: `401: key ${secret} revoked`,
          error: errorInfo("E_TOOL_EXECUTION", `curl failed for ${secret}`),
        },
      ],
      t0 + 2,
    ),
  );

  const stamp = eventStamper(sessionId, "run-1");
  for (const event of [
    stamp({ type: "run_start", mode: "agent", model: "m", prompt }, t0),
    stamp({ type: "tool_call_ready", ...call, arguments: { command } }, t0 + 1),
    stamp(
      {
        type: "approval_required",
        ...call,
        approvalId: "approval-1",
        arguments: { command },
        risk: "high",
        reason: `sends ${secret} over the network`,
      },
      t0 + 2,
    ),
    stamp({ type: "tool_call_state", ...call, state: "executing" }, t0 + 3),
    stamp({ type: "tool_output", ...call, stream: "stderr", chunk: `using ${secret}` }, t0 + 4),
    stamp({ type: "tool_completed", ...call, output: `{"token":"${secret}"}`, durationMs: 5 }, t0 + 5),
    stamp(
      {
        type: "tool_failed",
        ...call,
        error: errorInfo("E_TOOL_EXECUTION", `exit 22 for ${secret}`),
        durationMs: 5,
      },
      t0 + 6,
    ),
    stamp(
      {
        type: "run_complete",
        reason: "failed",
        iterations: 1,
        final: "",
        usage: { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0, reasoningTokens: 0, costUsd: 0 },
        durationMs: 9,
        error: errorInfo("E_LLM_AUTH", `invalid key ${secret}`),
      },
      t0 + 9,
    ),
  ]) {
    store.recordEvent(event);
  }

  store.addSpan({
    traceId: "t1",
    spanId: "s1",
    sessionId,
    runId: "run-1",
    name: "tool_call",
    startMs: t0,
    endMs: t0 + 5,
    status: "ok",
    attributes: { "tool.command": command, "tool.exit": 22 },
  });
  store.addGrantedRule(sessionId, `run_terminal_cmd(${command})`, "session");

  // An export made without redaction, brought in here: its title must be redacted on the way in.
  const header = {
    type: "session",
    version: 1,
    id: "x",
    title: `deploy ${secret}`,
    mode: "agent",
    model: "m",
  };
  const imported = importSession(
    store,
    `${JSON.stringify({ ...header, projectRoot: "/work/app", createdAt: t0 })}\n`,
    "/work/app",
  );
  if (!imported.ok) throw new Error(imported.error.message);
  store.ensureSession({ id: "renamed", projectRoot: "/work/app", mode: "agent", model: "m" });
  store.rename("renamed", `prod key ${secret}`);
}

/** The database as it lies on disk: the main file and whatever WAL and shared memory remain. */
function databaseBytes(): Buffer {
  const files = [bed.dbPath, `${bed.dbPath}-wal`, `${bed.dbPath}-shm`].filter((file) => existsSync(file));
  return Buffer.concat(files.map((file) => readFileSync(file)));
}

describe("redact option", () => {
  it("keeps the secret, and any prefix of it, out of the database files", () => {
    writeEverywhere();
    store.close();
    const bytes = databaseBytes();
    expect(bytes.includes(secret)).toBe(false);
    expect(bytes.includes(secret.slice(0, 10))).toBe(false);
    // The redacted text itself was stored, in every place written above.
    expect(bytes.toString("latin1").split(marker).length - 1).toBeGreaterThanOrEqual(16);
  });

  it("reads back the redacted text, still well-formed", () => {
    writeEverywhere();
    const [user, assistant, tool] = store.messages(sessionId);
    expect(user!.parts).toEqual([{ type: "text", text: prompt.split(secret).join(marker) }]);
    expect(assistant!.parts[1]).toMatchObject({
      arguments: { command: `curl -H "Authorization: Bearer ${marker}" https://api.example.com` },
    });
    expect(tool!.parts[0]).toMatchObject({ error: { message: `curl failed for ${marker}` } });
    expect(store.findSession(sessionId)).toMatchObject({
      ok: true,
      value: { title: "Use this key for the staging deploy, it is the only one that works: [redacted] …" },
    });
    expect(store.runs(sessionId)[0]).toMatchObject({ errorMessage: `invalid key ${marker}` });
    expect(store.spans(sessionId)[0]!.attributes["tool.command"]).toContain(marker);
    expect(exportSession(store, sessionId)).toMatchObject({
      ok: true,
      value: expect.not.stringContaining(secret),
    });
    expect(store.listSessions().map((session) => session.title)).toEqual(
      expect.arrayContaining([`deploy ${marker}`, `prod key ${marker}`]),
    );
  });
});
