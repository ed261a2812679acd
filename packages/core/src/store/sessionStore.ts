import type { DatabaseSync, StatementSync } from "node:sqlite";
import {
  errorInfo,
  type LatheErrorInfo,
  type LatheEvent,
  type Message,
  newId,
  type Part,
  partSchema,
  roleSchema,
  type SpanRecord,
  spanRecordSchema,
} from "@lathe/protocol";
import { inTransaction, openDatabase, storageError } from "./database.js";
import { EventRecorder } from "./eventRecorder.js";
import { markInterruptedRuns } from "./interruptedRuns.js";
import { ambiguousPrefix, storedUniquePrefix, uniquePrefixes } from "./shortIds.js";
import type {
  CheckpointReason,
  CheckpointRecord,
  NewSession,
  RunRecord,
  SessionInfo,
  ToolCallRecord,
} from "./storeRecords.js";
import { runStatusSchema } from "./storeRecords.js";
import { type UsageColumns, usageFromRow, usageSums } from "./usageRows.js";

export type StoreOutcome<T> = { ok: true; value: T } | { ok: false; error: LatheErrorInfo };

interface SessionRow extends UsageColumns {
  id: string;
  root: string;
  title: string;
  mode: string;
  model: string;
  parent_session_id: string | null;
  forked_from_message_id: string | null;
  created_at: number;
  updated_at: number;
  message_count: number;
}

const sessionSelect = `
  SELECT s.*, p.root,
    (SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id) AS message_count,
    u.input_tokens, u.output_tokens, u.cached_input_tokens, u.reasoning_tokens, u.cost_usd
  FROM sessions s
  JOIN projects p ON p.id = s.project_id
  LEFT JOIN (SELECT session_id, ${usageSums} FROM usage GROUP BY session_id) u ON u.session_id = s.id`;

/** Titles come from the first line of the first message until someone renames the session. */
const titleLength = 80;

export interface SessionStoreOptions {
  /** Applied to every text written, so an API key that reached a message or an error is never stored. */
  redact?: (text: string) => string;
}

/**
 * Sessions, their messages and everything that happened in them (SPEC §7), in one SQLite file.
 * Every write is a transaction of its own, finished before the engine goes on.
 */
export class SessionStore {
  private readonly recorder: EventRecorder;
  private readonly redact: (text: string) => string;

  private constructor(
    readonly db: DatabaseSync,
    options: SessionStoreOptions,
  ) {
    this.redact = options.redact ?? ((text) => text);
    this.recorder = new EventRecorder(db, this.redact);
  }

  private readonly statements = new Map<string, StatementSync>();

  /** Prepared once per text: the same few statements run for every message and event. */
  private sql(text: string): StatementSync {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  /**
   * Every face opens the database here, so this is where the runs of killed processes stop
   * showing as running. Marking them is left to the next opening when the database is too busy
   * to write to now: the store is usable all the same.
   */
  static open(path: string, options: SessionStoreOptions = {}): StoreOutcome<SessionStore> {
    const opened = openDatabase(path);
    if (!opened.ok) return opened;
    try {
      markInterruptedRuns(opened.db);
    } catch {
      // Busy or read-only: the runs stay as they are until a later opening can write.
    }
    return { ok: true, value: new SessionStore(opened.db, options) };
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }

  /** Creates the session when it is new; an existing one is left as it is (a resumed session). */
  ensureSession(session: NewSession, messages: readonly Message[] = []): void {
    const now = Date.now();
    inTransaction(this.db, () => {
      const projectId = this.projectId(session.projectRoot, now);
      this.sql(
        `INSERT OR IGNORE INTO sessions (id, project_id, title, mode, model, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ).run(session.id, projectId, this.redact(session.title ?? ""), session.mode, session.model, now, now);
      for (const message of messages) this.insertMessage(session.id, message);
    });
  }

  private projectId(root: string, now: number): string {
    const found = this.sql("SELECT id FROM projects WHERE root = ?").get(root) as { id: string } | undefined;
    if (found) return found.id;
    const id = newId(now);
    this.sql("INSERT INTO projects (id, root, created_at) VALUES (?, ?, ?)").run(id, root, now);
    return id;
  }

  appendMessage(message: Message): void {
    inTransaction(this.db, () => this.insertMessage(message.sessionId, message));
    this.sql("UPDATE sessions SET updated_at = ? WHERE id = ?").run(message.createdAt, message.sessionId);
  }

  private insertMessage(sessionId: string, message: Message): void {
    const next = this.sql("SELECT COALESCE(MAX(seq), -1) + 1 AS seq FROM messages WHERE session_id = ?").get(
      sessionId,
    ) as { seq: number };
    this.sql("INSERT INTO messages (id, session_id, seq, role, created_at) VALUES (?, ?, ?, ?, ?)").run(
      message.id,
      sessionId,
      next.seq,
      message.role,
      message.createdAt,
    );
    const insertPart = this.sql("INSERT INTO parts (message_id, seq, type, data) VALUES (?, ?, ?, ?)");
    message.parts.forEach((part, index) => {
      // Tool images (screenshots, several MB) are kept as files, not in the database.
      const stored = part.type === "tool_result" && part.images ? { ...part, images: undefined } : part;
      insertPart.run(message.id, index, part.type, this.redact(JSON.stringify(stored)));
    });
    if (message.role === "user") this.titleFromFirstMessage(sessionId, message.parts);
  }

  private titleFromFirstMessage(sessionId: string, parts: readonly Part[]): void {
    const text = parts.find((part) => part.type === "text")?.text.trim();
    if (!text) return;
    // Redacted before it is cut: a secret cut in half no longer matches and would be stored in part.
    const firstLine = this.redact(text.split("\n")[0]!);
    const title = firstLine.length > titleLength ? `${firstLine.slice(0, titleLength - 1)}…` : firstLine;
    this.sql("UPDATE sessions SET title = ? WHERE id = ? AND title = ''").run(title, sessionId);
  }

  /** Writes what the event stream says about runs, tool calls, approvals and usage. */
  recordEvent(event: LatheEvent): void {
    this.recorder.record(event);
  }

  messages(sessionId: string): Message[] {
    const rows = this.sql(
      `SELECT m.id, m.role, m.created_at, p.data FROM messages m
         LEFT JOIN parts p ON p.message_id = m.id
         WHERE m.session_id = ? ORDER BY m.seq, p.seq`,
    ).all(sessionId) as { id: string; role: string; created_at: number; data: string | null }[];
    const messages: Message[] = [];
    for (const row of rows) {
      let message = messages.at(-1);
      if (message?.id !== row.id) {
        message = {
          id: row.id,
          sessionId,
          role: roleSchema.parse(row.role),
          parts: [],
          createdAt: row.created_at,
        };
        messages.push(message);
      }
      if (row.data !== null) message.parts.push(partSchema.parse(withArgumentsKey(JSON.parse(row.data))));
    }
    return messages;
  }

  /** A session by its id or a unique prefix of it. */
  findSession(idOrPrefix: string): StoreOutcome<SessionInfo> {
    // The exact match sorts first, so longer ids starting with it cannot crowd it out of the rows.
    const rows = this.sql(
      `${sessionSelect} WHERE s.id = ? OR s.id LIKE ? ESCAPE '\\' ORDER BY s.id = ? DESC, s.id LIMIT ?`,
    ).all(idOrPrefix, likePrefix(idOrPrefix), idOrPrefix, shownCandidates + 1) as unknown as SessionRow[];
    const exact = rows.find((row) => row.id === idOrPrefix);
    if (exact) return { ok: true, value: sessionFromRow(exact) };
    if (rows.length === 1) return { ok: true, value: sessionFromRow(rows[0]!) };
    const message =
      rows.length === 0
        ? `No session has the id "${idOrPrefix}".`
        : this.ambiguity("sessions", "session", idOrPrefix, rows);
    return { ok: false, error: errorInfo("E_SESSION_NOT_FOUND", message) };
  }

  /** The shortest prefix of a session id that names it alone, as lists show it. */
  shortSessionId(id: string): string {
    return storedUniquePrefix(this.db, "sessions", id);
  }

  /** The shortest prefix of a checkpoint id that names it alone, as lists show it. */
  shortCheckpointId(id: string): string {
    return storedUniquePrefix(this.db, "checkpoints", id);
  }

  private ambiguity(
    table: "sessions" | "checkpoints",
    kind: string,
    prefix: string,
    rows: readonly { id: unknown }[],
  ): string {
    const candidates = rows
      .slice(0, shownCandidates)
      .map((row) => storedUniquePrefix(this.db, table, String(row.id)));
    return ambiguousPrefix(kind, prefix, candidates, rows.length > shownCandidates);
  }

  /** The most recently active session of a project (`--continue`). */
  latestSession(projectRoot: string): SessionInfo | undefined {
    const row = this.sql(
      `${sessionSelect} WHERE p.root = ? ORDER BY s.updated_at DESC, s.id DESC LIMIT 1`,
    ).get(projectRoot) as SessionRow | undefined;
    return row ? sessionFromRow(row) : undefined;
  }

  listSessions(filter: { projectRoot?: string; limit?: number } = {}): SessionInfo[] {
    const where = filter.projectRoot === undefined ? "" : "WHERE p.root = ?";
    const params = filter.projectRoot === undefined ? [] : [filter.projectRoot];
    const rows = this.sql(`${sessionSelect} ${where} ORDER BY s.updated_at DESC, s.id DESC LIMIT ?`).all(
      ...params,
      filter.limit ?? -1,
    ) as unknown as SessionRow[];
    return rows.map(sessionFromRow);
  }

  runs(sessionId: string): RunRecord[] {
    const rows = this.sql(
      `SELECT r.*, u.input_tokens, u.output_tokens, u.cached_input_tokens, u.reasoning_tokens, u.cost_usd
         FROM runs r LEFT JOIN (SELECT run_id, ${usageSums} FROM usage GROUP BY run_id) u ON u.run_id = r.id
         WHERE r.session_id = ? ORDER BY r.started_at, r.id`,
    ).all(sessionId) as unknown as (UsageColumns & Record<string, string | number | null>)[];
    return rows.map((row) => ({
      id: String(row.id),
      prompt: String(row.prompt),
      mode: String(row.mode),
      model: String(row.model),
      status: runStatusSchema.parse(row.status),
      iterations: Number(row.iterations),
      errorCode: row.error_code ? String(row.error_code) : undefined,
      errorMessage: row.error_message ? String(row.error_message) : undefined,
      startedAt: Number(row.started_at),
      endedAt: row.ended_at === null ? undefined : Number(row.ended_at),
      durationMs: row.duration_ms === null ? undefined : Number(row.duration_ms),
      usage: usageFromRow(row),
    }));
  }

  toolCalls(sessionId: string): ToolCallRecord[] {
    const rows = this.sql("SELECT * FROM tool_calls WHERE session_id = ? ORDER BY started_at, call_id").all(
      sessionId,
    ) as Record<string, string | number | null>[];
    return rows.map((row) => ({
      callId: String(row.call_id),
      runId: String(row.run_id),
      name: String(row.name),
      arguments: JSON.parse(String(row.arguments)),
      state: String(row.state),
      errorCode: row.error_code ? String(row.error_code) : undefined,
      durationMs: row.duration_ms === null ? undefined : Number(row.duration_ms),
      startedAt: Number(row.started_at),
    }));
  }

  /** The model the session went on with (a switch mid-session), so it resumes on that one. */
  setSessionModel(sessionId: string, model: string): void {
    this.sql("UPDATE sessions SET model = ? WHERE id = ?").run(model, sessionId);
  }

  rename(sessionId: string, title: string): void {
    this.sql("UPDATE sessions SET title = ? WHERE id = ?").run(this.redact(title), sessionId);
  }

  deleteSession(sessionId: string): void {
    this.sql("DELETE FROM sessions WHERE id = ?").run(sessionId);
  }

  /**
   * A new session holding the conversation up to and including `atMessageId` (all of it when
   * absent). The original is left as it is. A `backup` keeps the original's last activity, so it
   * never passes for the newest session (`--continue`).
   */
  fork(sessionId: string, atMessageId?: string, options: { backup?: boolean } = {}): StoreOutcome<string> {
    const source = this.findSession(sessionId);
    if (!source.ok) return source;
    const messages = this.messages(source.value.id);
    const at =
      atMessageId === undefined ? undefined : messageByPrefix(source.value.id, messages, atMessageId);
    if (at && !at.ok) return at;
    const end = at === undefined ? messages.length : at.value + 1;
    const id = newId();
    try {
      inTransaction(this.db, () => {
        const now = Date.now();
        const updatedAt = options.backup ? source.value.updatedAt : now;
        this.db
          .prepare(
            `INSERT INTO sessions (id, project_id, title, mode, model, parent_session_id, forked_from_message_id,
               created_at, updated_at)
             SELECT ?, project_id, ?, mode, model, id, ?, ?, ? FROM sessions WHERE id = ?`,
          )
          .run(
            id,
            `${source.value.title} (fork)`.trim(),
            messages[end - 1]?.id ?? null,
            now,
            updatedAt,
            source.value.id,
          );
        for (const message of messages.slice(0, end)) {
          this.insertMessage(id, { ...message, id: newId(), sessionId: id });
        }
      });
    } catch (error) {
      return { ok: false, error: storageError("Cannot fork the session", error) };
    }
    return { ok: true, value: id };
  }

  /**
   * Drops `messageId` and every message after it (restoring the conversation to before it). The
   * rewind is the session's latest activity: it moves past any backup taken of it just before.
   */
  truncateFrom(sessionId: string, messageId: string): StoreOutcome<number> {
    const row = this.sql("SELECT seq FROM messages WHERE session_id = ? AND id = ?").get(
      sessionId,
      messageId,
    ) as { seq: number } | undefined;
    if (!row) {
      return {
        ok: false,
        error: errorInfo("E_SESSION_NOT_FOUND", `Session ${sessionId} has no message ${messageId}.`),
      };
    }
    const result = this.sql("DELETE FROM messages WHERE session_id = ? AND seq >= ?").run(sessionId, row.seq);
    this.sql("UPDATE sessions SET updated_at = MAX(?, updated_at + 1) WHERE id = ?").run(
      Date.now(),
      sessionId,
    );
    return { ok: true, value: Number(result.changes) };
  }

  addGrantedRule(sessionId: string, rule: string, scope: string): void {
    this.sql("INSERT INTO granted_rules (session_id, rule, scope, created_at) VALUES (?, ?, ?, ?)").run(
      sessionId,
      this.redact(rule),
      scope,
      Date.now(),
    );
  }

  addCheckpoint(checkpoint: Omit<CheckpointRecord, "id" | "createdAt">): CheckpointRecord {
    const record: CheckpointRecord = { ...checkpoint, id: newId(), createdAt: Date.now() };
    this.sql(
      `INSERT INTO checkpoints (id, session_id, message_id, call_id, reason, commit_sha, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      record.id,
      record.sessionId,
      record.messageId ?? null,
      record.callId ?? null,
      record.reason,
      record.commit,
      record.createdAt,
    );
    return record;
  }

  checkpoints(sessionId: string): CheckpointRecord[] {
    const rows = this.sql("SELECT * FROM checkpoints WHERE session_id = ? ORDER BY created_at, id").all(
      sessionId,
    ) as Record<string, string | number | null>[];
    return rows.map(checkpointFromRow);
  }

  /** A checkpoint by its id or a unique prefix, or by the user message it was taken at. */
  findCheckpoint(ref: string): StoreOutcome<CheckpointRecord> {
    const rows = this.sql(
      `SELECT * FROM checkpoints
       WHERE id = ? OR id LIKE ? ESCAPE '\\' OR (message_id = ? AND reason = 'user_message')
       ORDER BY (id = ? OR message_id = ?) DESC, id LIMIT ?`,
    ).all(ref, likePrefix(ref), ref, ref, ref, shownCandidates + 1) as Record<
      string,
      string | number | null
    >[];
    const records = rows.map(checkpointFromRow);
    const exact = records.find((record) => record.id === ref || record.messageId === ref);
    if (exact) return { ok: true, value: exact };
    if (records.length === 1) return { ok: true, value: records[0]! };
    const message =
      records.length === 0
        ? `No checkpoint or user message has the id "${ref}".`
        : this.ambiguity("checkpoints", "checkpoint", ref, records);
    return { ok: false, error: errorInfo("E_CHECKPOINT", message) };
  }

  addSpan(span: SpanRecord): void {
    this.sql(
      `INSERT OR REPLACE INTO spans (span_id, trace_id, parent_span_id, session_id, run_id, name, start_ms, end_ms,
           status, error_code, attributes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      span.spanId,
      span.traceId,
      span.parentSpanId ?? null,
      span.sessionId,
      span.runId,
      span.name,
      span.startMs,
      span.endMs,
      span.status,
      span.errorCode ?? null,
      this.redact(JSON.stringify(span.attributes)),
    );
  }

  spans(sessionId: string): SpanRecord[] {
    const rows = this.sql("SELECT * FROM spans WHERE session_id = ? ORDER BY start_ms, span_id").all(
      sessionId,
    ) as Record<string, string | number | null>[];
    return rows.map((row) =>
      spanRecordSchema.parse({
        traceId: row.trace_id,
        spanId: row.span_id,
        ...(row.parent_span_id ? { parentSpanId: row.parent_span_id } : {}),
        sessionId: row.session_id,
        runId: row.run_id,
        name: row.name,
        startMs: row.start_ms,
        endMs: row.end_ms,
        status: row.status,
        ...(row.error_code ? { errorCode: row.error_code } : {}),
        attributes: JSON.parse(String(row.attributes)),
      }),
    );
  }

  /** `PRAGMA integrity_check`: "ok" for a sound database. */
  integrityCheck(): string {
    const rows = this.sql("PRAGMA integrity_check").all() as { integrity_check: string }[];
    return rows.map((row) => row.integrity_check).join("\n");
  }
}

/**
 * A call whose arguments did not parse has `arguments: undefined`, which JSON drops, but the part
 * schema requires the key: put it back so such a conversation can still be read.
 */
export function withArgumentsKey(part: unknown): unknown {
  if (typeof part !== "object" || part === null || "arguments" in part) return part;
  return "type" in part && part.type === "tool_call" ? { ...part, arguments: undefined } : part;
}

function sessionFromRow(row: SessionRow): SessionInfo {
  return {
    id: row.id,
    projectRoot: row.root,
    title: row.title,
    mode: row.mode,
    model: row.model,
    parentSessionId: row.parent_session_id ?? undefined,
    forkedFromMessageId: row.forked_from_message_id ?? undefined,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    messageCount: Number(row.message_count),
    usage: usageFromRow(row),
  };
}

function checkpointFromRow(row: Record<string, string | number | null>): CheckpointRecord {
  return {
    id: String(row.id),
    sessionId: String(row.session_id),
    messageId: row.message_id ? String(row.message_id) : undefined,
    callId: row.call_id ? String(row.call_id) : undefined,
    reason: String(row.reason) as CheckpointReason,
    commit: String(row.commit_sha),
    createdAt: Number(row.created_at),
  };
}

/** A LIKE pattern matching `text` literally at the start (ids typed by users may hold `_` or `%`). */
/** How many ids an "ambiguous prefix" error names. */
const shownCandidates = 3;

/** The index of the session's message named by an id or a unique prefix of one. */
function messageByPrefix(sessionId: string, messages: readonly Message[], ref: string): StoreOutcome<number> {
  const exact = messages.findIndex((m) => m.id === ref);
  if (exact >= 0) return { ok: true, value: exact };
  const matches = messages.flatMap((m, index) => (ref !== "" && m.id.startsWith(ref) ? [index] : []));
  if (matches.length === 1) return { ok: true, value: matches[0]! };
  if (matches.length === 0) {
    return {
      ok: false,
      error: errorInfo("E_SESSION_NOT_FOUND", `Session ${sessionId} has no message ${ref}.`),
    };
  }
  const short = uniquePrefixes(messages.map((m) => m.id));
  const candidates = matches.slice(0, shownCandidates).map((index) => short.get(messages[index]!.id)!);
  const message = ambiguousPrefix(
    `message of session ${sessionId}`,
    ref,
    candidates,
    matches.length > shownCandidates,
  );
  return { ok: false, error: errorInfo("E_SESSION_NOT_FOUND", message) };
}

function likePrefix(text: string): string {
  return `${text.replace(/[\\%_]/g, "\\$&")}%`;
}
