// Session store (SPEC §7): the time to persist one agent turn (its two messages and the events
// the recorder writes), the time for a fresh process to open the database and list 1,000
// sessions, and the size on disk of 100 sessions × 50 turns. Turns are sized like real ones:
// two tool calls whose outputs are ~2 KB each, stored in the tool message (the tool_calls table
// keeps their state and timing), as the engine does. Everything runs against a temp $LATHE_HOME.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { SessionStore } from "../../packages/core/dist/index.js";
import { newId } from "../../packages/protocol/dist/index.js";

const timedTurns = 500;
const listedSessions = 1000;
const listRounds = 5;
const sizeSessions = 100;
const turnsPerSession = 50;
const model = "anthropic:claude-sonnet-4-5";

export async function run() {
  const latheHome = mkdtempSync(path.join(tmpdir(), "lathe-bench-storage-"));
  try {
    const turn = persistTurns(path.join(latheHome, "turns", "lathe.db"));
    const listMs = openAndList(path.join(latheHome, "list", "lathe.db"));
    const size = databaseSize(path.join(latheHome, "size", "lathe.db"));
    return [
      { metric: "persist one turn p50", value: round(quantile(turn, 0.5)), unit: "ms" },
      { metric: "persist one turn p95", value: round(quantile(turn, 0.95)), unit: "ms" },
      {
        metric: `open + list ${listedSessions.toLocaleString("en")} sessions (median of ${listRounds})`,
        value: round(listMs),
        unit: "ms",
      },
      {
        metric: `size, ${sizeSessions} sessions × ${turnsPerSession} turns`,
        value: round(size.bytes / 1e6),
        unit: "MB",
      },
      { metric: "  per turn", value: round(size.bytes / (sizeSessions * turnsPerSession) / 1e3), unit: "KB" },
    ];
  } finally {
    rmSync(latheHome, { recursive: true, force: true });
  }
}

/** Milliseconds for each of `timedTurns` turns of one session, each turn written as the engine writes it. */
function persistTurns(dbPath) {
  const store = open(dbPath);
  const session = startSession(store, "/work/bench-app");
  const times = [];
  for (let i = 0; i < timedTurns; i++) {
    const { messages, events } = agentTurn(session, i);
    const started = performance.now();
    for (const message of messages) store.appendMessage(message);
    for (const event of events) store.recordEvent(event);
    times.push(performance.now() - started);
  }
  store.close();
  return times;
}

/** The median time, over fresh connections, to open the database and list every session in it. */
function openAndList(dbPath) {
  const store = open(dbPath);
  for (let s = 0; s < listedSessions; s++) {
    const session = startSession(store, `/work/project-${s % 20}`);
    const { messages, events } = agentTurn(session, 0);
    for (const message of messages) store.appendMessage(message);
    for (const event of events) store.recordEvent(event);
    store.appendMessage(textMessage(session.id, "assistant", "All tests pass now.", session.clock()));
    store.recordEvent(session.event({ type: "run_complete", ...runEnd() }));
  }
  store.close();
  const times = [];
  for (let round = 0; round < listRounds; round++) {
    const started = performance.now();
    const reopened = open(dbPath);
    const listed = reopened.listSessions();
    times.push(performance.now() - started);
    reopened.close();
    if (listed.length !== listedSessions) throw new Error(`listed ${listed.length} sessions`);
  }
  return quantile(times, 0.5);
}

/** Bytes of the database file and its WAL once the WAL has been checkpointed back into the file. */
function databaseSize(dbPath) {
  const store = open(dbPath);
  for (let s = 0; s < sizeSessions; s++) {
    const session = startSession(store, `/work/project-${s % 10}`);
    for (let i = 0; i < turnsPerSession; i++) {
      const { messages, events } = agentTurn(session, i);
      for (const message of messages) store.appendMessage(message);
      for (const event of events) store.recordEvent(event);
    }
    store.recordEvent(session.event({ type: "run_complete", ...runEnd() }));
  }
  store.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  const bytes = [dbPath, `${dbPath}-wal`].reduce((sum, file) => sum + sizeOf(file), 0);
  store.close();
  return { bytes };
}

function open(dbPath) {
  const opened = SessionStore.open(dbPath);
  if (!opened.ok) throw new Error(`${opened.error.code}: ${opened.error.message}`);
  return opened.value;
}

/**
 * A new session with its first user message and the start of its run; `event` stamps drafts
 * like the engine does, `clock` hands out strictly increasing times.
 */
function startSession(store, projectRoot) {
  const id = newId();
  const runId = newId();
  let seq = 0;
  let now = Date.now();
  const clock = () => ++now;
  const session = {
    id,
    runId,
    clock,
    event: (draft) => ({ ...draft, sessionId: id, runId, seq: seq++, at: clock() }),
  };
  const prompt = "The test suite fails after the config refactor; find the cause and fix it.";
  store.ensureSession({ id, projectRoot, mode: "agent", model }, [textMessage(id, "user", prompt, clock())]);
  store.recordEvent(session.event({ type: "run_start", mode: "agent", model, prompt }));
  return session;
}

/** One iteration of the loop: the model's message with two calls, their results, and the recorder's events. */
function agentTurn(session, index) {
  const calls = [
    {
      callId: newId(),
      providerCallId: `toolu_${index}_a`,
      name: "read_file",
      arguments: { path: `src/module${index}.ts` },
    },
    {
      callId: newId(),
      providerCallId: `toolu_${index}_b`,
      name: "search_files",
      arguments: { pattern: `loadConfig${index}`, path: "src" },
    },
  ];
  const assistant = {
    id: newId(),
    sessionId: session.id,
    role: "assistant",
    createdAt: session.clock(),
    parts: [
      {
        type: "text",
        text: `Turn ${index}: reading the module and looking for the other callers of loadConfig.`,
      },
      ...calls.map((call) => ({ type: "tool_call", ...call, rawArguments: JSON.stringify(call.arguments) })),
    ],
  };
  const outputs = calls.map((call) => toolOutput(call, index));
  const tool = {
    id: newId(),
    sessionId: session.id,
    role: "tool",
    createdAt: session.clock(),
    parts: calls.map((call, i) => ({
      type: "tool_result",
      callId: call.callId,
      providerCallId: call.providerCallId,
      name: call.name,
      status: "success",
      output: outputs[i],
    })),
  };
  const usage = {
    inputTokens: 4200 + index * 900,
    outputTokens: 180,
    cachedInputTokens: 3900,
    reasoningTokens: 0,
    costUsd: 0.0041,
  };
  const e = session.event;
  const events = [
    e({ type: "turn_start", iteration: index + 1, maxIterations: 100 }),
    ...calls.map((call) =>
      e({ type: "tool_call_ready", callId: call.callId, name: call.name, arguments: call.arguments }),
    ),
    ...calls.flatMap((call) =>
      ["validating", "scheduled", "executing", "success"].map((state) =>
        e({ type: "tool_call_state", callId: call.callId, name: call.name, state }),
      ),
    ),
    ...calls.map((call, i) =>
      e({ type: "tool_completed", callId: call.callId, name: call.name, output: outputs[i], durationMs: 12 }),
    ),
    e({ type: "usage", usage, total: usage }),
    e({ type: "turn_end", iteration: index + 1, toolCalls: calls.length }),
  ];
  return { messages: [assistant, tool], events };
}

/** About 2 KB of numbered source lines, different for every call so no two outputs are alike. */
function toolOutput(call, index) {
  const lines = [];
  for (let n = 1; lines.join("\n").length < 2000; n++) {
    lines.push(
      `${n}\tconst setting${index}_${n} = loadConfig("${call.name}", { key: "${call.callId.slice(-8)}", line: ${n} });`,
    );
  }
  return lines.join("\n");
}

function textMessage(sessionId, role, text, createdAt) {
  return { id: newId(), sessionId, role, createdAt, parts: [{ type: "text", text }] };
}

function runEnd() {
  const usage = {
    inputTokens: 9000,
    outputTokens: 400,
    cachedInputTokens: 7000,
    reasoningTokens: 0,
    costUsd: 0.01,
  };
  return { reason: "completed", iterations: 2, final: "All tests pass now.", usage, durationMs: 41_000 };
}

function sizeOf(file) {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

const round = (n) => Math.round(n * 100) / 100;
