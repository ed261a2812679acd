import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  type EventDraft,
  errorInfo,
  eventSchema,
  type LatheEvent,
  type Message,
  newId,
  type Part,
  type Role,
} from "@lathe/protocol";
import { SessionStore, type SessionStoreOptions } from "../../src/store/index.js";

/** A temp directory holding one session database; every store opened through it is closed on cleanup. */
export interface StoreTestBed {
  dir: string;
  dbPath: string;
  /** Opens the database, failing the test when the store refuses to. */
  open(options?: SessionStoreOptions): SessionStore;
  cleanup(): void;
}

export function createStoreTestBed(): StoreTestBed {
  const dir = mkdtempSync(path.join(tmpdir(), "lathe-store-"));
  const dbPath = path.join(dir, "home", "sessions.db");
  const opened: SessionStore[] = [];
  return {
    dir,
    dbPath,
    open(options) {
      const outcome = SessionStore.open(dbPath, options);
      if (!outcome.ok) throw new Error(`store did not open: ${outcome.error.code} ${outcome.error.message}`);
      opened.push(outcome.value);
      return outcome.value;
    },
    cleanup() {
      for (const store of opened) store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A fixed clock, so `updated_at` orderings and durations are exact. */
export const t0 = 1_750_000_000_000;

export function message(sessionId: string, role: Role, parts: Part[], createdAt = t0): Message {
  return { id: newId(createdAt), sessionId, role, parts, createdAt };
}

/**
 * Stamps drafts the way a session does (sessionId, runId, strictly increasing seq) and checks
 * each against the protocol schema, so the recorder is fed events a real run could emit.
 */
export function eventStamper(
  sessionId: string,
  runId: string,
): (draft: EventDraft, at: number) => LatheEvent {
  let seq = 0;
  return (draft, at) => eventSchema.parse({ ...draft, sessionId, runId, seq: seq++, at });
}

/** Rows of `table` (for the session when given), read with SQL rather than through the store's API. */
export function countRows(store: SessionStore, table: string, sessionId?: string): number {
  const where = sessionId === undefined ? "" : " WHERE session_id = ?";
  const params = sessionId === undefined ? [] : [sessionId];
  const row = store.db.prepare(`SELECT COUNT(*) AS n FROM ${table}${where}`).get(...params) as { n: number };
  return row.n;
}

/** One of every part type, with the awkward values: nested arguments, unparsable raw text, errors, unicode. */
export function conversation(sessionId: string): Message[] {
  const parts: Part[][] = [
    [
      { type: "text", text: "Fix the failing test in src/sum.ts\nIt started after the refactor." },
      { type: "file", path: "screenshot.png", mediaType: "image/png", data: "iVBORw0KGgo=" },
    ],
    [
      { type: "reasoning", text: "The test imports sum from the old path…" },
      { type: "text", text: "Let me look at the file." },
      {
        type: "tool_call",
        callId: "call-1",
        providerCallId: "toolu_01",
        name: "read_file",
        arguments: { path: "src/sum.ts", range: [1, 40], options: { follow: true, encoding: null } },
        rawArguments: '{"path":"src/sum.ts","range":[1,40],"options":{"follow":true,"encoding":null}}',
      },
      {
        type: "tool_call",
        callId: "call-2",
        providerCallId: "toolu_02",
        name: "run_terminal_cmd",
        arguments: undefined,
        rawArguments: '{"command": "npm test',
      },
    ],
    [
      {
        type: "tool_result",
        callId: "call-1",
        providerCallId: "toolu_01",
        name: "read_file",
        status: "success",
        output: "1\texport const sum = (a: number, b: number) => a + b; // ✓ ünïcode\n",
      },
      {
        type: "tool_result",
        callId: "call-2",
        providerCallId: "toolu_02",
        name: "run_terminal_cmd",
        status: "error",
        output: "Error [E_INVALID_ARGS]: arguments are not valid JSON",
        error: errorInfo("E_INVALID_ARGS", "arguments are not valid JSON"),
      },
      { type: "system_reminder", text: "You are in agent mode." },
    ],
    [{ type: "compaction_summary", text: "Earlier: the user asked to fix a test; sum.ts was read." }],
    [],
  ];
  const roles = ["user", "assistant", "tool", "user", "assistant"] as const;
  return parts.map((p, index) => message(sessionId, roles[index]!, p, t0 + index * 1000));
}
