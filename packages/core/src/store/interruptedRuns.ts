import type { DatabaseSync } from "node:sqlite";
import { processRunning } from "../processIdentity/processIdentity.js";

interface RunningRow {
  id: string;
  session_id: string;
  started_at: number;
  owner_pid: number | null;
  owner_start_ticks: number | null;
}

/**
 * The run's last recorded moment: its start, its tool calls, and the messages of its session
 * from its start until the next run of the session began.
 */
const lastActivity = `
  SELECT MAX(at) AS at FROM (
    SELECT :started AS at
    UNION ALL SELECT MAX(COALESCE(ended_at, started_at)) FROM tool_calls
      WHERE session_id = :session AND run_id = :run
    UNION ALL SELECT MAX(created_at) FROM messages
      WHERE session_id = :session AND created_at >= :started AND created_at < COALESCE(
        (SELECT MIN(started_at) FROM runs WHERE session_id = :session AND started_at > :started), 9e15)
  )`;

/**
 * Marks `interrupted` every run still `running` whose process is gone (killed, crashed, the
 * machine restarted): that process never got to write how the run ended. A run with no owner
 * recorded was started by a Lathe from before owners were kept, whose process is gone by now.
 *
 * The end time is the run's last recorded moment, not now: the process died after it, and a run
 * found a week later did not run for a week. Should a live owner be misjudged, its own end of
 * the run overwrites the status. Returns how many runs were marked.
 */
export function markInterruptedRuns(db: DatabaseSync): number {
  const running = db
    .prepare(
      "SELECT id, session_id, started_at, owner_pid, owner_start_ticks FROM runs WHERE status = 'running'",
    )
    .all() as unknown as RunningRow[];
  const gone = running.filter(
    (row) =>
      row.owner_pid === null ||
      !processRunning({ pid: row.owner_pid, startTicks: row.owner_start_ticks ?? undefined }),
  );
  if (gone.length === 0) return 0;
  const activity = db.prepare(lastActivity);
  const mark = db.prepare(
    "UPDATE runs SET status = 'interrupted', ended_at = ?, duration_ms = ? WHERE id = ? AND status = 'running'",
  );
  let marked = 0;
  for (const row of gone) {
    const { at } = activity.get({ run: row.id, session: row.session_id, started: row.started_at }) as {
      at: number;
    };
    marked += Number(mark.run(at, at - row.started_at, row.id).changes);
  }
  return marked;
}
