import { randomUUID } from "node:crypto";
import type pg from "pg";
import { cloudSchema } from "../database/migrations.js";

export type EventLevel = "debug" | "info" | "warn" | "error";

/** One line of a task's stream: a status change, a log line, a question, an answer, a result. */
export interface TaskEvent {
  taskId: string;
  /** 1, 2, 3… within the task, in commit order: a reader resumes after the last one it saw. */
  seq: number;
  stepIndex: number | null;
  kind: string;
  level: EventLevel;
  message: string;
  data: unknown;
  deviceId: string | null;
  createdAt: Date;
}

export interface NewEvent {
  /** Given by the writer, so a write retried after a lost acknowledgement is stored once. */
  id?: string;
  taskId: string;
  stepIndex?: number;
  kind: string;
  level?: EventLevel;
  message: string;
  data?: unknown;
  deviceId?: string;
}

/** Anything that runs a query: the pool or a client inside a transaction. */
export type Queryable = Pick<pg.Pool, "query"> | Pick<pg.PoolClient, "query">;

/**
 * Appends an event with the task's next sequence number. The task's row is locked by the update
 * until the statement's transaction commits, so one task's events commit in sequence order and a
 * reader that has seen seq N never finds a smaller one appearing later. The insert's trigger
 * announces it with pg_notify.
 */
export async function appendEvent(db: Queryable, event: NewEvent): Promise<number | undefined> {
  const result = await db.query<{ seq: string }>(
    `WITH next AS (
       UPDATE ${cloudSchema}.tasks SET last_seq = last_seq + 1, updated_at = now() WHERE id = $1 RETURNING last_seq)
     INSERT INTO ${cloudSchema}.events (task_id, seq, id, step_index, kind, level, message, data, device_id)
     SELECT $1, next.last_seq, $2, $3, $4, $5, $6, $7, $8 FROM next
     ON CONFLICT (id) DO NOTHING
     RETURNING seq`,
    [
      event.taskId,
      event.id ?? randomUUID(),
      event.stepIndex ?? null,
      event.kind,
      event.level ?? "info",
      event.message,
      event.data === undefined ? null : JSON.stringify(event.data),
      event.deviceId ?? null,
    ],
  );
  const row = result.rows[0];
  return row === undefined ? undefined : Number(row.seq);
}

interface EventRow {
  task_id: string;
  seq: string;
  step_index: number | null;
  kind: string;
  level: EventLevel;
  message: string;
  data: unknown;
  device_id: string | null;
  created_at: Date;
}

/** The task's events after `afterSeq`, oldest first, at most `limit`. */
export async function eventsAfter(
  db: Queryable,
  taskId: string,
  afterSeq: number,
  limit = 1000,
): Promise<TaskEvent[]> {
  const result = await db.query<EventRow>(
    `SELECT task_id, seq, step_index, kind, level, message, data, device_id, created_at
       FROM ${cloudSchema}.events WHERE task_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
    [taskId, afterSeq, limit],
  );
  return result.rows.map((row) => ({
    taskId: row.task_id,
    seq: Number(row.seq),
    stepIndex: row.step_index,
    kind: row.kind,
    level: row.level,
    message: row.message,
    data: row.data,
    deviceId: row.device_id,
    createdAt: row.created_at,
  }));
}
