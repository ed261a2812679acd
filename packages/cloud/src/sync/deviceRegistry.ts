import { hostname } from "node:os";
import { cloudSchema } from "../database/migrations.js";
import type { Queryable } from "../tasks/taskEvents.js";

export interface DeviceRecord {
  id: string;
  kind: "worker" | "client";
  labels: readonly string[];
}

/**
 * Records a device as seen now: every worker when it starts and as it works, every client command
 * (submit, watch, answer…) when it connects. A machine that both runs a worker and submits keeps
 * one row under its id, marked as a worker.
 */
export async function registerDevice(db: Queryable, device: DeviceRecord): Promise<void> {
  await db.query(
    `INSERT INTO ${cloudSchema}.devices (id, kind, host, labels, pid, worker_seen_at)
     VALUES ($1, $2, $3, $4, $5, CASE WHEN $2 = 'worker' THEN now() END)
     ON CONFLICT (id) DO UPDATE SET
       kind = CASE WHEN ${cloudSchema}.devices.kind = 'worker' OR EXCLUDED.kind = 'worker' THEN 'worker' ELSE 'client' END,
       host = EXCLUDED.host,
       labels = CASE WHEN EXCLUDED.kind = 'worker' THEN EXCLUDED.labels ELSE ${cloudSchema}.devices.labels END,
       pid = EXCLUDED.pid,
       last_seen_at = now(),
       worker_seen_at = coalesce(EXCLUDED.worker_seen_at, ${cloudSchema}.devices.worker_seen_at)`,
    [device.id, device.kind, hostname(), [...device.labels], process.pid],
  );
}
